import ArgumentParser
import DBBBuilder

#if Postgres
import DBBPostgres
#endif

extension Demo {
    /// A manager on the PostgreSQL database at `url`; in a `dbb-demo` built without the package
    /// trait `Postgres`, an error that says how to build one with it.
    static func postgresManager(_ url: String) throws -> DBBManager {
        #if Postgres
        return try DBBManager(postgres: url)
        #else
        throw ValidationError(
            "this dbb-demo was built without PostgreSQL: run it with the package trait Postgres, "
                + "`swift run --traits Postgres dbb-demo --postgres postgres://…`")
        #endif
    }

    /// `url` without its password, for display.
    static func withoutPassword(_ url: String) -> String {
        #if Postgres
        return DBBPostgresConfiguration.withoutPassword(url)
        #else
        // Only a file path with an `@` gets here: a URL was refused before.
        return DefaultDatabase.display(url)
        #endif
    }
}
