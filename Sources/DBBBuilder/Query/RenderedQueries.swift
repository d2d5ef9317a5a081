import DBBSQLite

/// The SQL of the typed selects a manager ran, by ``QueryShape``: a report run in a loop is
/// walked once per run to collect its values, and rendered once.
///
/// Bounded: when it holds ``capacity`` shapes it starts again empty (a program has few shapes;
/// one that builds them from user input should not grow without end).
final class RenderedQueries: Sendable {
    static let capacity = 512

    /// A select's SQL, and which of its bound values (one per occurrence, ``QueryShape/values``)
    /// are its arguments: the first occurrence of each placeholder.
    private struct Entry {
        let sql: String
        let arguments: [Int]
    }

    private let entries = Locked<[QueryShape: Entry]>([:])

    /// The SQL and arguments of `select` on `dialect`: looked up by shape, or rendered by
    /// `render` (which throws what the query is refused for) and kept.
    func sql(of select: SelectNode, dialect: any DBBDialect, render: () throws -> (SQLRenderer, String)) throws
        -> DBBQuerySQL
    {
        let shape = QueryShape(select, dialect: dialect)
        if !shape.needsChecks, let entry = entries.withLock({ $0[shape] }) {
            return DBBQuerySQL(sql: entry.sql, arguments: entry.arguments.map { shape.values[$0] })
        }
        let (renderer, sql) = try render()
        // The walk and the renderer bind alike, by construction; a tree they disagree on is
        // rendered each time rather than kept with the wrong arguments.
        guard !shape.needsChecks, renderer.occurrences == shape.values.count else {
            assert(shape.needsChecks, "QueryShape and SQLRenderer bind \(select) differently")
            return DBBQuerySQL(sql: sql, arguments: renderer.arguments)
        }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[shape.withoutValues] = Entry(sql: sql, arguments: renderer.firstOccurrences)
        }
        return DBBQuerySQL(sql: sql, arguments: renderer.arguments)
    }
}
