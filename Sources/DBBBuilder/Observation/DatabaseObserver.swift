import Metrics
import Tracing

/// What a manager records of its calls: its metrics (``StatementInstruments``) and its spans.
/// Made when the manager opens, and only when a metrics backend is bootstrapped
/// (`MetricsSystem.factory` is not the NOOP handler) or a tracer is (`InstrumentationSystem.tracer`
/// is not the NoOp tracer): a manager of a program that bootstraps neither holds `nil`, and each
/// call tests that once and runs as it would without this file — no clock read, no label, no span.
final class DatabaseObserver: Sendable {
    /// `db.system`: `sqlite` or `postgresql`.
    let system: String
    /// `db.namespace`: the SQLite file's path (`:memory:` for an in-memory database) or the
    /// PostgreSQL database's name.
    let namespace: String
    /// The metrics, or `nil` when no metrics backend is bootstrapped.
    let instruments: StatementInstruments?
    /// The tracer, or `nil` when none is bootstrapped.
    let tracer: (any Tracer)?

    private init(system: String, namespace: String, instruments: StatementInstruments?, tracer: (any Tracer)?) {
        self.system = system
        self.namespace = namespace
        self.instruments = instruments
        self.tracer = tracer
    }

    /// The observer of a manager of `system`'s database `namespace`, or `nil` when neither metrics
    /// nor tracing is bootstrapped.
    static func resolve(system: String, namespace: String) -> DatabaseObserver? {
        let factory = MetricsSystem.factory
        let tracer = InstrumentationSystem.tracer
        let measures = !(factory is NOOPMetricsHandler)
        let traces = !(tracer is NoOpTracer)
        guard measures || traces else { return nil }
        return DatabaseObserver(
            system: system, namespace: namespace,
            instruments: measures ? StatementInstruments(system: system, namespace: namespace, factory: factory) : nil,
            tracer: traces ? tracer : nil)
    }

    /// Runs `body`, one call of `operation` on `table` (or none: raw SQL), in a span, counting
    /// its statements and timing it. `sql` becomes the span's `db.query.text` when given (the
    /// manager's opt-in); bound values never do.
    func run<T>(
        _ operation: DatabaseOperation, table: String?, sql: String?, queryText: Bool,
        _ body: (inout StatementTally) throws -> T
    ) throws -> T {
        let start = instruments == nil ? 0 : StatementInstruments.now
        let span = tracer.map { startSpan($0, operation, table: table, sql: sql, queryText: queryText) }
        var tally = StatementTally()
        do {
            let result: T
            if let span {
                result = try ServiceContext.$current.withValue(span.context) { try body(&tally) }
            } else {
                result = try body(&tally)
            }
            succeeded(operation, tally, span, since: start)
            return result
        } catch {
            failed(operation, tally, error, span, since: start)
            throw error
        }
    }

    /// ``run(_:table:sql:queryText:_:)`` for an `async` call.
    func run<T>(
        _ operation: DatabaseOperation, table: String?, sql: String?, queryText: Bool,
        _ body: () async throws -> T
    ) async throws -> T {
        let start = instruments == nil ? 0 : StatementInstruments.now
        let span = tracer.map { startSpan($0, operation, table: table, sql: sql, queryText: queryText) }
        do {
            let result: T
            if let span {
                result = try await ServiceContext.$current.withValue(span.context) { try await body() }
            } else {
                result = try await body()
            }
            succeeded(operation, StatementTally(), span, since: start)
            return result
        } catch {
            failed(operation, StatementTally(), error, span, since: start)
            throw error
        }
    }

    // MARK: - Recording

    private func succeeded(
        _ operation: DatabaseOperation, _ tally: StatementTally, _ span: (any Span)?, since start: UInt64
    ) {
        if let instruments {
            if operation == .save {
                instruments.count(.insert, .ok, tally.inserted)
                instruments.count(.update, .ok, tally.updated)
            } else {
                instruments.count(operation.statementKind, .ok)
            }
            instruments.record(operation, since: start)
        }
        if let span {
            if operation == .save {
                span.updateAttributes { attributes in
                    attributes.set("dbb.rows.inserted", value: .int64(Int64(tally.inserted)))
                    attributes.set("dbb.rows.updated", value: .int64(Int64(tally.updated)))
                }
            }
            span.end()
        }
    }

    private func failed(
        _ operation: DatabaseOperation, _ tally: StatementTally, _ error: any Error, _ span: (any Span)?,
        since start: UInt64
    ) {
        let outcome = StatementOutcome(error)
        if let instruments {
            let kind = operation == .save ? (tally.lastWasInsert ? .insert : .update) : operation.statementKind
            instruments.count(kind, outcome)
            instruments.record(operation, since: start)
        }
        if let span {
            span.updateAttributes { attributes in
                attributes.set("error.type", value: .string(outcome == .other ? Self.errorType(error) : outcome.label))
            }
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            span.end()
        }
    }

    /// The `error.type` of a failure that classifies as none of the outcomes: the
    /// ``DBBError``'s kind, or the error's type.
    private static func errorType(_ error: any Error) -> String {
        (error as? DBBError).map { "\($0.kind)" } ?? String(describing: type(of: error))
    }

    // MARK: - Spans

    /// A span of `operation`, with the OpenTelemetry database attributes (the old and the new
    /// names of each: `db.operation` and `db.operation.name`, …).
    private func startSpan(
        _ tracer: any Tracer, _ operation: DatabaseOperation, table: String?, sql: String?, queryText: Bool
    ) -> any Span {
        let name = operation == .raw ? sql.flatMap(Self.firstWord) ?? operation.spanOperation : operation.spanOperation
        let span = tracer.startSpan(table.map { "\(name) \($0)" } ?? name, ofKind: .client)
        // A dictionary of values, made once: `SpanAttributes`' subscript boxes each value.
        var attributes = [String: SpanAttribute](minimumCapacity: 12)
        attributes["db.system"] = .string(system)
        attributes["db.system.name"] = .string(system)
        attributes["db.namespace"] = .string(namespace)
        attributes["db.name"] = .string(namespace)
        attributes["db.operation"] = .string(name)
        attributes["db.operation.name"] = .string(name)
        if let table {
            attributes["db.sql.table"] = .string(table)
            attributes["db.collection.name"] = .string(table)
        }
        if queryText, let sql {
            attributes["db.statement"] = .string(sql)
            attributes["db.query.text"] = .string(sql)
        }
        span.attributes = SpanAttributes(attributes)
        return span
    }

    /// The first word of `sql`, upper-cased (`SELECT`, `INSERT`, `WITH`), or `nil`.
    static func firstWord(_ sql: String) -> String? {
        let word = sql.drop { !$0.isLetter }.prefix { $0.isLetter }
        return word.isEmpty ? nil : word.uppercased()
    }
}
