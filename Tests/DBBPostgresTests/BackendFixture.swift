import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// The backends a parity test runs on: the same test source, a real SQLite file or a real
/// PostgreSQL database of the test server.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgresql
    var testDescription: String { rawValue }
}

/// A fresh database of `backend` with a manager on it; `reopen()` gives a second manager on
/// the same database (another "instance" of the service). `nil` when PostgreSQL is missing
/// (``TestPostgresServer/shared()`` printed why).
struct BackendDatabase {
    let backend: Backend
    let manager: DBBManager
    private let directory: TemporaryDirectory?
    private let location: String

    init?(_ backend: Backend, _ classes: [DBBTableObject.Type] = []) throws {
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

    /// Another manager on the same database.
    func reopen(_ classes: [DBBTableObject.Type] = []) throws -> DBBManager {
        let other = backend == .sqlite ? try DBBManager(url: URL(fileURLWithPath: location)) : try DBBManager(postgres: location)
        if !classes.isEmpty { try other.register(classes) }
        return other
    }

    /// The number of rows of `table` (double-quoted, which both engines read as the exact name).
    func rows(of table: String) throws -> Int {
        try manager.query("SELECT count(*) FROM \"\(table)\"")[0].decode(Int.self, at: 0)
    }

    /// Where this database is: a file path or a PostgreSQL URL.
    var place: String { location }
}
