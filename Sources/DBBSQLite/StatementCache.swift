/// A connection's prepared statements, keyed by SQL text, bounded by a capacity with
/// least-recently-used eviction.
///
/// A save or a query in a loop asks for the same few statements over and over: the last ones
/// handed out are checked first, by comparing their text (the same `String` is one comparison
/// of its storage), before the dictionary hashes the text. The use clock lives in the statement,
/// so a hit writes nothing to the dictionary.
struct StatementCache {
    private var entries: [String: SQLiteStatement] = [:]
    /// The statements handed out last, most recent first.
    private var recent: [SQLiteStatement] = []
    private static let recentCount = 4
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    /// Whether a statement for `sql` is cached (its use clock is not moved).
    func contains(_ sql: String) -> Bool { entries[sql] != nil }

    /// The cached statement for `sql`, if any.
    mutating func statement(for sql: String) -> SQLiteStatement? {
        clock &+= 1
        if let index = recent.firstIndex(where: { $0.sql == sql }) {
            let statement = recent[index]
            if index > 0 {
                recent.remove(at: index)
                recent.insert(statement, at: 0)
            }
            statement.lastUse = clock
            return statement
        }
        guard let statement = entries[sql] else { return nil }
        remember(statement)
        return statement
    }

    /// Caches `statement`, evicting the least recently used statement not in use when full.
    mutating func insert(_ statement: SQLiteStatement) {
        if entries.count >= capacity,
            let victim = entries.filter({ !$0.value.isBusy }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            if let evicted = entries.removeValue(forKey: victim) { recent.removeAll { $0 === evicted } }
        }
        clock &+= 1
        entries[statement.sql] = statement
        remember(statement)
    }

    private mutating func remember(_ statement: SQLiteStatement) {
        statement.lastUse = clock
        recent.removeAll { $0 === statement }
        recent.insert(statement, at: 0)
        if recent.count > Self.recentCount { recent.removeLast() }
    }

    mutating func removeAll() {
        entries.removeAll()
        recent.removeAll()
    }
}
