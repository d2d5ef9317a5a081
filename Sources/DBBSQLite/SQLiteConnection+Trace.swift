import CSQLite

/// Receives the text of each statement a connection starts to run.
public typealias SQLiteTraceHandler = @Sendable (String) -> Void

extension SQLiteConnection {
    /// Calls `handler` with the SQL of every statement as it starts to run — as prepared (without
    /// surrounding blanks and the final `;`), with its `?` placeholders, not the bound values (which may be private) — and with SQLite's
    /// `-- TRIGGER name` comment when a trigger fires. A cached statement run again is reported
    /// again. `nil` stops tracing. Uses [`sqlite3_trace_v2`](https://www.sqlite.org/c3ref/trace_v2.html)
    /// with `SQLITE_TRACE_STMT`; the handler runs on the thread that runs the statement.
    ///
    /// ```swift
    /// connection.trace { sql in print("SQL:", sql) }
    /// ```
    public func trace(_ handler: SQLiteTraceHandler?) {
        guard let db = handle else { return }
        traceHandler = handler.map(TraceBox.init)
        guard let box = traceHandler else {
            sqlite3_trace_v2(db, 0, nil, nil)
            return
        }
        sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context, let text else { return 0 }
                var sql = Substring(String(cString: text.assumingMemoryBound(to: CChar.self)))
                sql = sql.drop(while: \.isWhitespace)
                while let last = sql.last, last.isWhitespace || last == ";" { sql.removeLast() }
                Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue().handler(String(sql))
                return 0
            }, Unmanaged.passUnretained(box).toOpaque())
    }
}

/// The handler of ``SQLiteConnection/trace(_:)``, kept alive by the connection while SQLite
/// holds a pointer to it.
final class TraceBox {
    let handler: SQLiteTraceHandler
    init(_ handler: @escaping SQLiteTraceHandler) { self.handler = handler }
}
