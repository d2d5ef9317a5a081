import DBBBuilder
import DBBPostgres
import Foundation

/// The backends a behavioural test runs on: the same test source, a real SQLite file or a
/// real PostgreSQL database of the test server (``TestPostgresServer``).
///
/// ```swift
/// @Test("…", arguments: Backend.allCases)
/// func saves(_ backend: Backend) throws {
///     guard let db = try BackendDatabase(backend, [Person.self]) else { return }
///     …
/// }
/// ```
public enum Backend: String, CaseIterable, Sendable {
    case sqlite, postgresql

    /// Both backends, or those `DBB_TEST_BACKENDS` names (`sqlite`, `postgresql`, comma-separated):
    /// CI's second pass over the ORM's suites, which checks how properties are reached, runs them
    /// on SQLite only (the property access is the same on both).
    public static var allCases: [Backend] {
        guard let names = ProcessInfo.processInfo.environment["DBB_TEST_BACKENDS"], !names.isEmpty else {
            return [.sqlite, .postgresql]
        }
        return [.sqlite, .postgresql].filter { names.split(separator: ",").contains(Substring($0.rawValue)) }
    }
}

/// A fresh database of `backend` with a manager on it; `reopen()` gives a second manager on
/// the same database (another "instance" of the service). `nil` when PostgreSQL is missing
/// (``TestPostgresServer/shared()`` printed why; with `DBB_REQUIRE_POSTGRES` set it throws).
/// Keep the value in a local while its managers are used: it owns the SQLite file's folder.
///
/// Raw SQL in tests quotes table and column names (`SELECT count(*) FROM "Person"`): PostgreSQL
/// folds unquoted names to lower case, and SQLite reads quoted names the same.
public struct BackendDatabase {
    public let backend: Backend
    public let manager: DBBManager
    private let directory: TemporaryDirectory?
    private let location: String

    /// A new database of `backend` with `classes` registered.
    public init?(_ backend: Backend, _ classes: [DBBTableObject.Type] = []) throws {
        self.backend = backend
        switch backend {
        case .sqlite:
            let directory = try TemporaryDirectory()
            self.directory = directory
            location = directory.url.appendingPathComponent("test.sqlite").path
            manager = try DBBManager(url: URL(fileURLWithPath: location))
        case .postgresql:
            guard let server = try TestPostgresServer.shared() else { return nil }
            directory = nil
            location = try server.makeDatabase()
            manager = try DBBManager(postgres: location)
        }
        if !classes.isEmpty { try manager.register(classes) }
    }

    /// Another manager on the same database, with `classes` registered (none: nothing is
    /// registered, so a test can register and see the error).
    public func reopen(_ classes: [DBBTableObject.Type] = []) throws -> DBBManager {
        let other =
            backend == .sqlite
            ? try DBBManager(url: URL(fileURLWithPath: location)) : try DBBManager(postgres: location)
        if !classes.isEmpty { try other.register(classes) }
        return other
    }

    /// Where this database is: a file path or a PostgreSQL URL.
    public var place: String { location }
}
