import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import InMemoryTracing
import Metrics
import MetricsTestKit
import Testing
import Tracing

#if Postgres
import DBBPostgres
#endif

/// A row with a unique column, for a constraint failure.
@DBBTable
final class ObservedTicket: DBBTableObject {
    @Unique var code: String?
    var note = ""
}

/// Saves a new ticket from its pre-save hook: a save inside the save.
@DBBTable
final class ObservedNote: DBBTableObject {
    var text = ""

    override func willSave() throws {
        let ticket = ObservedTicket(dbManager: dbManager)
        ticket.note = "from a hook"
        try ticket.save()
    }
}

/// The metrics backend and tracer of the test process, bootstrapped once (each can be only once
/// a process) before the first manager of these tests opens: managers resolve their instruments
/// when they open. Managers of other suites opened later record into them too; these tests look
/// only at their own database's (the `db_namespace` dimension and the `db.namespace` attribute).
enum ObservationBackends {
    static let shared: (metrics: TestMetrics, tracer: KeptSpansTracer) = {
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        let tracer = KeptSpansTracer()
        InstrumentationSystem.bootstrap(tracer)
        return (metrics, tracer)
    }()
}

/// A tracer of in-memory spans that keeps, of the spans of databases, only those of the
/// databases these tests watch: the spans of other suites' managers would otherwise stay in
/// memory until the test process ends.
final class KeptSpansTracer: Tracer {
    private let kept = Locked<[FinishedInMemorySpan]>([])
    private let watched = Locked<Set<String>>([])

    /// Keeps the spans of the database `namespace` from now on.
    func watch(_ namespace: String) { watched.withLock { _ = $0.insert(namespace) } }

    /// The spans kept, oldest first.
    var finishedSpans: [FinishedInMemorySpan] { kept.withLock { $0 } }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        let parent = context()
        let spanContext = InMemorySpanContext(
            traceID: parent.inMemorySpanContext?.traceID ?? UUID().uuidString, spanID: UUID().uuidString,
            parentSpanID: parent.inMemorySpanContext?.spanID)
        return InMemorySpan(
            operationName: operationName, context: parent, spanContext: spanContext, kind: kind,
            startInstant: instant()
        ) { [kept, watched] span in
            if case .string(let namespace) = span.attributes.get("db.namespace"),
                !watched.withLock({ $0.contains(namespace) })
            {
                return
            }
            kept.withLock { $0.append(span) }
        }
    }

    func activeSpan(identifiedBy context: ServiceContext) -> InMemorySpan? { nil }
    func forceFlush() {}
    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {}
    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    )
    where Inject.Carrier == Carrier {}
}

@Suite("Metrics and traces: counts, outcomes and spans of real saves, fetches and raw SQL")
struct MetricsAndTracesTests {
    let metrics = ObservationBackends.shared.metrics
    let tracer = ObservationBackends.shared.tracer

    @Test(
        "a batch save, an update, a fetch and raw SQL: counted by kind and outcome, one span each",
        arguments: Backend.allCases)
    func countsAndSpans(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ObservedTicket.self]) else { return }
        let namespace = Self.namespace(of: db)
        let system = backend == .sqlite ? "sqlite" : "postgresql"

        let tickets = (0..<3).map { index in
            let ticket = ObservedTicket(dbManager: db.manager)
            ticket.code = "T\(index)"
            return ticket
        }
        try ObservedTicket.save(tickets, manager: db.manager)
        tickets[0].note = "changed"
        try tickets[0].save()
        let fetched = try ObservedTicket.instances(where: \.note == "changed", manager: db.manager)
        #expect(fetched.count == 1)
        let rows = try db.manager.query(#"SELECT COUNT(*) AS n FROM "ObservedTicket""#)
        #expect(rows.first?["n", as: Int.self] == 3)
        try db.manager.execute(
            #"UPDATE "ObservedTicket" SET "note" = 'raw' WHERE "id" = ?"#, arguments: [tickets[1].id])

        #expect(count("insert", "ok", namespace) == 3)
        #expect(count("update", "ok", namespace) == 1)
        #expect(count("select", "ok", namespace) == 1)
        #expect(count("raw", "ok", namespace) == 2)
        #expect(count("schema", "ok", namespace) == 1)
        #expect(
            metrics.counters(label: "dbb_statements_total").allSatisfy { counter in
                counter.dimensions.contains { $0 == ("db_system", system) } || !Self.has(counter.dimensions, namespace)
            })
        #expect(durations("save", namespace) == 2)
        #expect(durations("fetch", namespace) == 1)
        #expect(durations("raw", namespace) == 2)
        #expect(transactions("commit", namespace) == 2)

        let spans = spans(of: namespace)
        let saves = spans.filter { $0.operationName == "save ObservedTicket" }
        #expect(saves.count == 2)  // the batch is one span
        let batch = try #require(saves.first)
        #expect(batch.attributes.get("db.system") == .string(system))
        #expect(batch.attributes.get("db.operation") == .string("save"))
        #expect(batch.attributes.get("db.sql.table") == .string("ObservedTicket"))
        #expect(batch.attributes.get("db.collection.name") == .string("ObservedTicket"))
        #expect(batch.attributes.get("dbb.rows.inserted") == .int64(3))
        #expect(batch.kind == .client && batch.status == nil && batch.errors.isEmpty)
        #expect(spans.filter { $0.operationName == "SELECT ObservedTicket" }.count == 1)
        #expect(
            spans.contains { $0.operationName == "SELECT" && $0.attributes.get("db.operation") == .string("SELECT") })
        #expect(spans.contains { $0.operationName == "UPDATE" })
        // No SQL text unless asked for.
        #expect(
            !spans.contains { $0.attributes.get("db.statement") != nil || $0.attributes.get("db.query.text") != nil })
    }

    @Test("the SQL text only when asked for, and never a bound value", arguments: Backend.allCases)
    func statementTextOptIn(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ObservedTicket.self]) else { return }
        let namespace = Self.namespace(of: db)
        let secret = "secret-\(UUID().uuidString)"
        let ticket = ObservedTicket(dbManager: db.manager)
        ticket.note = secret
        try ticket.save()
        let sql = #"SELECT "id" FROM "ObservedTicket" WHERE "note" = ?"#
        #expect(try db.manager.query(sql, arguments: [secret]).count == 1)
        #expect(!db.manager.recordsStatementText)
        db.manager.recordsStatementText = true
        #expect(try db.manager.query(sql, arguments: [secret]).count == 1)
        try db.manager.execute(
            #"UPDATE "ObservedTicket" SET "note" = ? WHERE "id" = ?"#, arguments: [secret + "2", ticket.id])
        _ = try ObservedTicket.instances(where: \.note == secret + "2", manager: db.manager)

        let spans = spans(of: namespace)
        let queries = spans.filter { $0.operationName == "SELECT" }
        #expect(queries.count == 2)
        #expect(queries.filter { $0.attributes.get("db.query.text") == .string(sql) }.count == 1)
        #expect(queries.filter { $0.attributes.get("db.statement") == .string(sql) }.count == 1)
        // No attribute of any span holds a bound value.
        for span in spans {
            var texts = [span.operationName]
            let collect = { (name: String, attribute: SpanAttribute) in texts.append("\(name)=\(attribute)") }
            span.attributes.forEach(collect)
            #expect(texts.count > 5)
            #expect(!texts.contains { $0.contains(secret) }, "\(texts)")
        }
    }

    @Test(
        "a constraint failure and a rowChanged conflict: counted with their outcome, the span in error",
        arguments: Backend.allCases)
    func failures(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ObservedTicket.self]) else { return }
        let namespace = Self.namespace(of: db)
        let first = ObservedTicket(dbManager: db.manager)
        first.code = "A"
        try first.save()
        let duplicate = ObservedTicket(dbManager: db.manager)
        duplicate.code = "A"
        #expect(throws: DBBError.self) { try duplicate.save() }
        #expect(count("insert", "constraint", namespace) == 1)

        let other = try db.reopen([ObservedTicket.self])
        let mine = try #require(try ObservedTicket.instance(id: first.id, manager: db.manager))
        let theirs = try #require(try ObservedTicket.instance(id: first.id, manager: other))
        let seen = try #require(mine.modifiedTime)
        theirs.note = "theirs"
        try theirs.save(ifModifiedTimeIs: seen)
        mine.note = "mine"
        #expect(throws: DBBError.self) { try mine.save(ifModifiedTimeIs: seen) }
        #expect(count("update", "conflict", namespace) == 1)
        #expect(
            metrics.counters(label: "dbb_conflicts_total").filter { Self.has($0.dimensions, namespace) }
                .reduce(0) { $0 + $1.totalValue } == 1)
        #expect(transactions("rollback", namespace) == 2)

        let failed = spans(of: namespace).filter { $0.status?.code == .error }
        #expect(failed.count == 2)
        #expect(failed.allSatisfy { $0.operationName == "save ObservedTicket" && $0.errors.count == 1 })
        let types = failed.compactMap { span -> String? in
            guard case .string(let type) = span.attributes.get("error.type") else { return nil }
            return type
        }
        #expect(types.sorted() == ["conflict", "constraint"])
    }

    @Test("a save from a save hook belongs to the outer save: one span, its rows counted", arguments: Backend.allCases)
    func hookSaveIsPartOfTheSave(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ObservedTicket.self, ObservedNote.self]) else { return }
        let namespace = Self.namespace(of: db)
        let note = ObservedNote(dbManager: db.manager)
        note.text = "outer"
        try note.save()
        #expect(try ObservedTicket.all(manager: db.manager).count == 1)
        let saves = spans(of: namespace).filter { $0.operationName.hasPrefix("save ") }
        #expect(saves.map(\.operationName) == ["save ObservedNote"])
        #expect(saves.first?.attributes.get("dbb.rows.inserted") == .int64(2))
        #expect(count("insert", "ok", namespace) == 2)
        #expect(transactions("commit", namespace) == 1)
    }

    @Test("an awaited fetch's span is a child of the caller's span", arguments: Backend.allCases)
    func awaitedFetchIsAChild(_ backend: Backend) async throws {
        guard let db = try BackendDatabase(backend, [ObservedTicket.self]) else { return }
        let namespace = Self.namespace(of: db)
        try await ObservedTicket(dbManager: db.manager).save()
        let request = "request \(UUID().uuidString)"
        let found = try await withSpan(request) { _ in try await ObservedTicket.all(manager: db.manager) }
        #expect(found.count == 1)
        let parent = try #require(tracer.finishedSpans.first { $0.operationName == request })
        let fetch = try #require(spans(of: namespace).first { $0.operationName == "SELECT ObservedTicket" })
        #expect(fetch.parentSpanID == parent.spanID && fetch.traceID == parent.traceID)
        // The awaited save had no parent span: a root of its own.
        let save = try #require(spans(of: namespace).first { $0.operationName == "save ObservedTicket" })
        #expect(save.parentSpanID == nil)
    }

    @Test("a PostgreSQL pool reports its connections and its waits")
    func pool() throws {
        guard let db = try BackendDatabase(.postgresql, [ObservedTicket.self]) else { return }
        let namespace = Self.namespace(of: db)
        _ = try ObservedTicket.all(manager: db.manager)
        let gauges = metrics.recorders(label: "dbb_pool_connections").filter { Self.has($0.dimensions, namespace) }
        let states = Set(gauges.compactMap { $0.dimensions.first { $0.0 == "state" }?.1 })
        #expect(states == ["open", "in_use", "idle"])
        let open = gauges.first { $0.dimensions.contains { $0 == ("state", "open") } }
        #expect((open?.lastValue ?? 0) >= 1)
        let waits = metrics.timers(label: "dbb_pool_wait_duration_seconds").filter {
            Self.has($0.dimensions, namespace)
        }
        #expect(waits.reduce(0) { $0 + $1.values.count } >= 1)
    }

    #if Postgres
    @Test("a read meant for a replica that cannot be reached goes to the primary, and is counted")
    func replicaFallback() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let standby = try server.startStandby()
        defer { try? standby.stop() }
        let primary = try server.makeDatabase()
        let name = try #require(URLComponents(string: primary)).path.dropFirst()
        let replica = standby.url(database: String(name))
        let deadline = Date().addingTimeInterval(120)  // a hang guard: replay may lag on a busy machine
        while (try? DBBManager(postgres: replica)) == nil {
            guard Date() < deadline else { throw TestPostgresError(message: "the standby never had \(name)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let manager = try DBBManager(postgres: primary, replicas: [replica])
        try manager.register([ObservedTicket.self])
        try standby.stop()
        #expect(try ObservedTicket.all(manager: manager).isEmpty)  // from the primary
        let fallbacks = metrics.counters(label: "dbb_replica_fallbacks_total").filter {
            Self.has($0.dimensions, String(name)) && $0.dimensions.contains { $0 == ("reason", "unavailable") }
        }
        #expect(fallbacks.reduce(0) { $0 + $1.totalValue } == 1)
    }
    #endif

    // MARK: - Helpers

    /// The `db_namespace` of `db`'s manager: the SQLite file's path, or the PostgreSQL database's name.
    /// Its spans are kept from now on.
    static func namespace(of db: BackendDatabase) -> String {
        let namespace =
            db.backend == .postgresql
            ? URLComponents(string: db.place).map { String($0.path.dropFirst()) } ?? db.place : db.place
        ObservationBackends.shared.tracer.watch(namespace)
        return namespace
    }

    static func has(_ dimensions: [(String, String)], _ namespace: String) -> Bool {
        dimensions.contains { $0 == ("db_namespace", namespace) }
    }

    private func count(_ kind: String, _ outcome: String, _ namespace: String) -> Int64 {
        metrics.counters(label: "dbb_statements_total").filter { counter in
            Self.has(counter.dimensions, namespace) && counter.dimensions.contains { $0 == ("kind", kind) }
                && counter.dimensions.contains { $0 == ("outcome", outcome) }
        }.reduce(0) { $0 + $1.totalValue }
    }

    private func durations(_ operation: String, _ namespace: String) -> Int {
        metrics.timers(label: "dbb_operation_duration_seconds").filter { timer in
            Self.has(timer.dimensions, namespace) && timer.dimensions.contains { $0 == ("operation", operation) }
        }.reduce(0) { $0 + $1.values.count }
    }

    private func transactions(_ outcome: String, _ namespace: String) -> Int {
        metrics.timers(label: "dbb_transaction_duration_seconds").filter { timer in
            Self.has(timer.dimensions, namespace) && timer.dimensions.contains { $0 == ("outcome", outcome) }
        }.reduce(0) { $0 + $1.values.count }
    }

    /// The finished spans of the database `namespace`, oldest first.
    private func spans(of namespace: String) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.attributes.get("db.namespace") == .string(namespace) }
    }
}
