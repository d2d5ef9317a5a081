import CSQLite
import Foundation
import Logging

/// Receives the text of each statement a connection starts to run.
public typealias SQLiteTraceHandler = @Sendable (String) -> Void

extension SQLiteConnection {
    /// Calls `handler` with the SQL of every statement as it starts to run — as prepared
    /// (without surrounding blanks and the final `;`), with its `?` placeholders, not the bound
    /// values (which may be private) — and with SQLite's `-- TRIGGER name` comment when a
    /// trigger fires. A cached statement run again is reported again. `nil` stops tracing.
    /// Uses [`sqlite3_trace_v2`](https://www.sqlite.org/c3ref/trace_v2.html) with
    /// `SQLITE_TRACE_STMT`; the handler runs on the thread that runs the statement.
    ///
    /// ```swift
    /// connection.trace { sql in print("SQL:", sql) }
    /// ```
    public func trace(_ handler: SQLiteTraceHandler?) {
        traceHandler = handler
        installObserver()
    }

    /// Registers with SQLite the callbacks that tracing and logging need, and no others:
    /// with neither, SQLite calls nothing per statement.
    func installObserver() {
        guard let db = handle else { return }
        let logging = logging.flatMap { $0.plan.timesStatements ? $0 : nil }
        guard traceHandler != nil || logging != nil else {
            observer = nil
            sqlite3_trace_v2(db, 0, nil, nil)
            return
        }
        let observer = StatementObserver(handler: traceHandler, logging: logging)
        self.observer = observer
        let mask = logging == nil ? SQLITE_TRACE_STMT : SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE
        sqlite3_trace_v2(
            db, UInt32(mask),
            { event, context, statement, detail in
                guard let context, let statement else { return 0 }
                let observer = Unmanaged<StatementObserver>.fromOpaque(context).takeUnretainedValue()
                let stmt = OpaquePointer(statement)
                if event == UInt32(SQLITE_TRACE_STMT), let detail {
                    observer.started(stmt, text: detail.assumingMemoryBound(to: CChar.self))
                } else if event == UInt32(SQLITE_TRACE_PROFILE) {
                    observer.finished(stmt)
                }
                return 0
            }, Unmanaged.passUnretained(observer).toOpaque())
    }

    /// Logs `error`, thrown by `statement` (or by preparing its SQL), when logging is on.
    func logFailure(_ error: SQLiteError, statement: OpaquePointer? = nil) {
        guard let logging else { return }
        logging.failed(error.sql?.trimmingSpaces(), error: "\(error)", arguments: "expanded_sql") {
            statement.flatMap(expandedSQL)
        }
    }

    /// `error`, logged.
    func loggedFailure(_ error: SQLiteError) -> SQLiteError {
        logFailure(error)
        return error
    }
}

/// The trace handler and the logging of one connection, which SQLite's trace callback reaches;
/// kept alive by the connection while SQLite holds a pointer to it.
final class StatementObserver {
    let handler: SQLiteTraceHandler?
    /// Set only when statements are timed.
    let logging: StatementLogging?
    /// When each running statement started (a statement's own SQL can run others: a trigger's
    /// or a function's), by statement.
    private var starts: [(statement: OpaquePointer, nanoseconds: UInt64)] = []

    /// Which finished statements are logged, read from the logging once.
    private let plan: StatementLogging.Plan?

    init(handler: SQLiteTraceHandler?, logging: StatementLogging?) {
        self.handler = handler
        self.logging = logging
        plan = logging?.plan
    }

    func started(_ statement: OpaquePointer, text: UnsafePointer<CChar>) {
        if let handler { handler(trimmedSQL(text)) }
        guard logging != nil else { return }
        if !starts.isEmpty {
            // SQLite reports the statements a trigger runs as `-- …` lines on the statement that
            // fired it, which is already running: not a start. (A statement that a function
            // runs inside another is also reported as `-- …`, but on its own statement.)
            let isComment = text[0] == 0x2D && text[1] == 0x2D
            if isComment, starts.contains(where: { $0.statement == statement }) { return }
            starts.removeAll { $0.statement == statement }
            // SQLite reports the end of every statement it reported started (at its reset or
            // finalization), so this list holds only the statements running now; the bound
            // keeps a statement that somehow never ends from growing it.
            if starts.count >= 1024 { starts.removeFirst() }
        }
        starts.append((statement, monotonicNanoseconds()))
    }

    func finished(_ statement: OpaquePointer) {
        guard let logging, let index = starts.lastIndex(where: { $0.statement == statement }) else { return }
        let elapsed = monotonicNanoseconds() &- starts.remove(at: index).nanoseconds
        // Nothing more for the usual statement at `.warning`: quick, so not logged.
        guard plan?.logs(elapsed) == true else { return }
        let sql = sqlite3_sql(statement).map(trimmedSQL) ?? ""
        logging.finished(sql, nanoseconds: elapsed, arguments: "expanded_sql") { expandedSQL(statement) }
    }
}

/// Statement text as prepared, without the blanks around it and its final `;`.
private func trimmedSQL(_ text: UnsafePointer<CChar>) -> String {
    var sql = Substring(String(cString: text))
    sql = sql.drop(while: \.isWhitespace)
    while let last = sql.last, last.isWhitespace || last == ";" { sql.removeLast() }
    return String(sql)
}

/// The statement's SQL with its bound values in place of the parameters.
func expandedSQL(_ statement: OpaquePointer) -> String? {
    guard let text = sqlite3_expanded_sql(statement) else { return nil }
    defer { sqlite3_free(text) }
    return String(cString: text)
}

/// A monotonic clock reading, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
