/// A connection's prepared statements, keyed by SQL text, bounded by a capacity with
/// least-recently-used eviction.
struct StatementCache {
    private struct Entry {
        let statement: SQLiteStatement
        var lastUse: UInt64
    }

    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    /// The cached statement for `sql`, if any.
    mutating func statement(for sql: String) -> SQLiteStatement? {
        guard let entry = entries[sql] else { return nil }
        clock &+= 1
        entries[sql]?.lastUse = clock
        return entry.statement
    }

    /// Caches `statement`, evicting the least recently used statement not in use when full.
    mutating func insert(_ statement: SQLiteStatement) {
        if entries.count >= capacity,
           let victim = entries.filter({ !$0.value.statement.isBusy })
               .min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[victim] = nil
        }
        clock &+= 1
        entries[statement.sql] = Entry(statement: statement, lastUse: clock)
    }

    mutating func removeAll() { entries.removeAll() }
}
