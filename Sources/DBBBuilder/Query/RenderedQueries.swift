import DBBSQLite

/// The SQL of the typed selects a manager ran, by ``QueryShape``: a report run in a loop is
/// walked once per run to collect its values, and rendered once.
///
/// Bounded: when it holds ``capacity`` shapes it starts again empty (a program has few shapes;
/// one that builds them from user input should not grow without end).
final class RenderedQueries: Sendable {
    static let capacity = 512

    /// What a shape renders to, and which of its bound values (one per occurrence,
    /// ``QueryShape/values``) are its arguments: the first occurrence of each placeholder.
    private struct Entry {
        let rendered: Rendered
        let arguments: [Int]
    }

    /// A report's statement, or a typed fetch's.
    private enum Rendered {
        case select(String)
        case objects(SelectQuery)
    }

    private let entries = Locked<[QueryShape: Entry]>([:])

    /// The SQL and arguments of `select` on `dialect`: looked up by shape, or rendered by
    /// `render` (which throws what the query is refused for) and kept.
    func sql(of select: SelectNode, dialect: any DBBDialect, render: () throws -> (SQLRenderer, String)) throws
        -> DBBQuerySQL
    {
        let shape = QueryShape(select, dialect: dialect)
        if let (entry, arguments) = lookUp(shape), case .select(let sql) = entry.rendered {
            return DBBQuerySQL(sql: sql, arguments: arguments)
        }
        let (renderer, sql) = try render()
        keep(.select(sql), shape, renderer)
        return DBBQuerySQL(sql: sql, arguments: renderer.arguments)
    }

    /// The SELECT of a typed fetch of objects (`shape`, from ``QueryShape/init(objectsOf:filter:order:limit:offset:dialect:)``):
    /// looked up, or made by `render` and kept.
    func objects(_ shape: QueryShape, render: () throws -> (SQLRenderer, SelectQuery)) throws -> SelectQuery {
        if let (entry, arguments) = lookUp(shape), case .objects(let query) = entry.rendered {
            return query.binding(arguments)
        }
        let (renderer, query) = try render()
        keep(.objects(query), shape, renderer)
        return query
    }

    /// The entry of `shape` and its arguments, unless its values need the renderer's checks.
    private func lookUp(_ shape: QueryShape) -> (Entry, [DBBValue])? {
        guard !shape.needsChecks, let entry = entries.withLock({ $0[shape] }) else { return nil }
        return (entry, entry.arguments.map { shape.values[$0] })
    }

    private func keep(_ rendered: Rendered, _ shape: QueryShape, _ renderer: SQLRenderer) {
        guard !shape.needsChecks else { return }
        // The walk and the renderer bind alike, by construction; a tree they disagree on (in
        // count or order) is rendered each time rather than kept with the wrong arguments.
        guard renderer.occurrences == shape.values.count,
            renderer.firstOccurrences.map({ BoundValue(value: shape.values[$0]) })
                == renderer.arguments.map({ BoundValue(value: $0) })
        else {
            assertionFailure("QueryShape and SQLRenderer bind a tree differently")
            return
        }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[shape.withoutValues] = Entry(rendered: rendered, arguments: renderer.firstOccurrences)
        }
    }
}
