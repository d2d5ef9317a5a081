import DBBBuilder
import DBBTestSupport

#if Postgres
import DBBPostgres
#endif

/// A manager on the PostgreSQL database at `url`; an error in a build without the package trait
/// `Postgres`, whose tests never ask for one.
func postgresManager(_ url: String) throws -> DBBManager {
    #if Postgres
    return try DBBManager(postgres: url)
    #else
    throw TestPostgresError(message: "dbb-crash-helper was built without the package trait Postgres")
    #endif
}
