import DBBCore

/// What one ``DBBSelect`` value rendered, for its next run: the manager it ran on (held
/// weakly, so a closed manager's SQL is never given to another), the class's mapping there,
/// and the SQL with its arguments. A query's values are fixed when it is built, so its SQL
/// and arguments on one manager are too; a clause makes a new query with a new box.
struct RenderedSelect: Sendable {
    private struct Kept {
        weak var manager: DBBManager?
        let mapping: TableMapping
        let sql: DBBQuerySQL
    }

    private let kept = Locked<Kept?>(nil)

    /// The mapping and SQL kept for `manager`, or `nil`.
    func kept(on manager: DBBManager) -> (TableMapping, DBBQuerySQL)? {
        kept.withLock { kept in
            guard let kept, kept.manager === manager else { return nil }
            return (kept.mapping, kept.sql)
        }
    }

    /// Keeps `rendered` for the next run on `manager`.
    func keep(_ rendered: (TableMapping, DBBQuerySQL), on manager: DBBManager) {
        kept.withLock { $0 = Kept(manager: manager, mapping: rendered.0, sql: rendered.1) }
    }
}
