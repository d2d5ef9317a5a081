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
