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

    func numbered(_ sql: String) -> PlaceholderSQL {
        if let numbered = texts.withLock({ $0[sql] }) { return numbered }
        let numbered = PlaceholderSQL(sql)
        texts.withLock { texts in
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[sql] = numbered
        }
        return numbered
    }
}
#endif
