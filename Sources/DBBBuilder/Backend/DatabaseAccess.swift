import DBBLocale
import DBBSQLite
import Foundation

/// How a manager reaches its database: the connections of one backend, handed out for a
/// write (one writer at a time) or a read. SQLite's are below; DBBPostgres has its own.
@_spi(DBBBackend)
public protocol DatabaseAccess: Sendable {
    /// Runs `body` with exclusive use of the connection that writes. Nested calls from the
    /// same thread (a save hook that saves) reuse it.
    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T
    /// ``write(_:)`` for a registration, which creates or changes tables: a backend whose reads
    /// may go elsewhere (a read replica) sends the manager's later reads only where the
    /// tables as `body` left them are seen.
    func changeSchema<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T
    /// Runs `body` with a connection that reads.
    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T
    /// Runs `setup` on every connection, now and whenever one is opened later.
    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws
    /// Closes every connection.
    func close()
    /// The statement trace handler, given to each connection before its next use.
    var tracing: TraceSwitch { get }
    /// The SQL spelling of the backend's connections.
    var dialect: any DBBDialect { get }
    /// Whether the manager may change nothing in the database: registering only checks that
    /// the tables it needs exist (see `SchemaMigration`).
    var isReadOnly: Bool { get }
    /// The same connections as ones that read without a thread waiting, or `nil` (a protocol
    /// requirement, not a cast: see ``DatabaseConnection/setWriting``).
    var asyncReading: (any AsyncReadingAccess)? { get }
    /// The database's name on its server, or `nil` (a file's manager names it by its path): the
    /// `db.namespace` of the manager's metrics and spans.
    var databaseName: String? { get }
    /// Says that `sql` is a statement the expression tree rendered (`SQLRenderer`), with
    /// placeholders numbered 1…`parameterCount` in the dialect's spelling, a query or not: a
    /// backend that splits and reads SQL text before sending it (PostgreSQL's) takes these facts
    /// instead, so a typed query never goes through the tokenizer.
    func knowRendered(_ sql: String, parameterCount: Int, isQuery: Bool)
}

extension DatabaseAccess {
    /// One database: its reads see what its writes did.
    public func changeSchema<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T { try write(body) }
    /// Managers write unless their backend says otherwise.
    public var isReadOnly: Bool { false }
    /// Backends wait on a thread unless they say otherwise.
    public var asyncReading: (any AsyncReadingAccess)? { nil }
    /// Files have no database name.
    public var databaseName: String? { nil }
    /// SQLite prepares the text as it is.
    public func knowRendered(_ sql: String, parameterCount: Int, isQuery: Bool) {}
}
