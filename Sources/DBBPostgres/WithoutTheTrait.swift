#if !Postgres
import DBBBuilder

// Without the package trait `Postgres` this module holds only these, for the compiler's message
// where a program uses them: what to add, instead of a missing name (or a SQLite initializer the
// compiler proposes in its place, which would open a file named after the URL's path).

extension DBBManager {
    @available(
        *, unavailable,
        message: "DBBPostgres needs the package trait Postgres: add traits: [\"Postgres\"] to its .package line"
    )
    public convenience init(postgres url: String) throws { fatalError("unavailable") }

    @available(
        *, unavailable,
        message: "DBBPostgres needs the package trait Postgres: add traits: [\"Postgres\"] to its .package line"
    )
    public convenience init(postgres primary: String, replicas: [String], readYourWrites: Bool = false) throws {
        fatalError("unavailable")
    }
}

@available(
    *, unavailable,
    message: "DBBPostgres needs the package trait Postgres: add traits: [\"Postgres\"] to its .package line"
)
public struct DBBPostgresConfiguration {}
#endif
