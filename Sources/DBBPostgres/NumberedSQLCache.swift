#if Postgres
@_spi(DBBBackend) import DBBBuilder
import Synchronization

/// The numbered statements of each SQL text a manager has run, shared by its connections: a
/// lease gets a new ``PostgresBackend``, and the library's statements are the same few texts.
/// Raw SQL with values written into it would be new text each time: past `limit` texts the
/// cache starts over rather than grow without end.
final class NumberedSQLCache: Sendable {
    private let texts = Mutex<[String: PlaceholderSQL]>([:])
    static let limit = 1_000

    /// The statements the expression tree rendered, from their renderer's facts: kept apart, so
    /// that raw SQL's churn does not push them out (past `renderedLimit` they start over too).
    private let rendered = Mutex<[String: PlaceholderSQL]>([:])
    static let renderedLimit = 4_096

    func numbered(_ sql: String) -> PlaceholderSQL {
        if let numbered = rendered.withLock({ $0[sql] }) { return numbered }
        if let numbered = texts.withLock({ $0[sql] }) { return numbered }
        let numbered = PlaceholderSQL(sql)
        texts.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[sql] = numbered
        }
        return numbered
    }

    /// Keeps `sql`, a statement the expression tree rendered, numbered from what its renderer knows.
    func keepRendered(_ sql: String, parameterCount: Int, isQuery: Bool) {
        rendered.withLock { rendered in
            guard rendered[sql] == nil else { return }
            if rendered.count >= Self.renderedLimit { rendered.removeAll(keepingCapacity: true) }
            rendered[sql] = PlaceholderSQL(rendered: sql, parameterCount: parameterCount, isQuery: isQuery)
        }
    }
}
#endif
