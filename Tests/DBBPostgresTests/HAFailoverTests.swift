#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// pg_auto_failover (``TestFailoverCluster``): the primary's node SIGKILLed while two managers
/// save, the secondary promoted by the monitor, and the data checked afterwards.
@Suite("A real failover under writes: pg_auto_failover promotes the synchronous secondary", .serialized)
struct HAFailoverTests {
    /// What became of each save, by its ticket's code.
    private final class Tally: Sendable {
        let acknowledged = Mutex<[String]>([])
        /// When each save was acknowledged.
        let acknowledgedAt = Mutex<[String: Date]>([:])
        let failed = Mutex<[String: DBBError.Kind]>([:])
        let unknown = Mutex<[String]>([])
        /// When the first save failed, and when the first save begun after that succeeded (a save
        /// begun before the failure may still be acknowledged just after it: that is no resumption).
        let firstFailure = Mutex<ContinuousClock.Instant?>(nil)
        let resumed = Mutex<ContinuousClock.Instant?>(nil)
        /// The last failure's words, for the report.
        let lastFailure = Mutex<String>("")

        func record(_ code: String, begun: ContinuousClock.Instant, _ outcome: Result<Void, any Error>) {
            switch outcome {
            case .success:
                acknowledged.withLock { $0.append(code) }
                acknowledgedAt.withLock { $0[code] = Date() }
                if let failure = firstFailure.withLock({ $0 }), begun > failure {
                    resumed.withLock { $0 = $0 ?? .now }
                }
            case .failure(let error as DBBError) where error.kind == .commitOutcomeUnknown:
                firstFailure.withLock { $0 = $0 ?? .now }
                unknown.withLock { $0.append(code) }
                lastFailure.withLock { $0 = "\(error)" }
            case .failure(let error as DBBError):
                firstFailure.withLock { $0 = $0 ?? .now }
                failed.withLock { $0[code] = error.kind }
                lastFailure.withLock { $0 = "\(error)" }
            case .failure(let error):
                Issue.record("save \(code) failed with \(error), not a DBBError")
            }
        }
    }

    @Test(
        "two managers save while the primary's node is killed: every acknowledged save is on the promoted node once, no failed one is, and each commitOutcomeUnknown is found one way or the other"
    )
    func primaryKilledUnderWrites() throws {
        guard let cluster = try TestFailoverCluster.start() else { return }
        var configuration = try DBBPostgresConfiguration(url: cluster.url())
        (configuration.answerTimeout, configuration.connectTimeout, configuration.poolSize) = (
            .seconds(5), .seconds(2), 2
        )
        try DBBManager(postgres: configuration).register([Ticket.self])

        let tally = Tally()
        let stop = Atomic<Bool>(false)
        let done = DispatchGroup()
        for writer in 0..<2 {
            let manager = try DBBManager(postgres: configuration)
            try manager.register([Ticket.self])
            done.enter()
            Thread {
                defer { done.leave() }
                var index = 0
                while !stop.load(ordering: .relaxed) {
                    let ticket = Ticket(dbManager: manager)
                    ticket.code = "w\(writer)-\(index)"
                    let begun = ContinuousClock.now
                    let outcome = Result { try ticket.save() }
                    tally.record(ticket.code, begun: begun, outcome)
                    index += 1
                    if case .failure = outcome { Thread.sleep(forTimeInterval: 0.05) }  // as a client backs off
                }
            }.start()
        }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!tally.acknowledged.withLock { $0.isEmpty }, "the writers save before the kill")
        let killed = ContinuousClock.now
        let killedAt = Date()
        try cluster.killNode(0)
        // Until writes have gone through again for two seconds, or two minutes (a hang guard).
        let deadline = killed + .seconds(120)
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            if let resumed = tally.resumed.withLock({ $0 }), ContinuousClock.now > resumed + .seconds(2) { break }
        }
        stop.store(true, ordering: .relaxed)
        done.wait()

        // The promoted node holds what the primary acknowledged: replication was synchronous.
        let promoted = try DBBManager(postgres: cluster.url(node: 1))
        let stored = try promoted.query(#"SELECT "code" FROM "Ticket""#).map { try $0.decode(String.self, at: 0) }
        let storedSet = Set(stored)
        let acknowledged = tally.acknowledged.withLock { $0 }
        let failed = tally.failed.withLock { $0 }
        let unknown = tally.unknown.withLock { $0 }
        #expect(stored.count == storedSet.count, "each row once (the codes are unique)")
        let lost = acknowledged.filter { !storedSet.contains($0) }
        if !lost.isEmpty {
            let times = tally.acknowledgedAt.withLock { times in
                lost.map { "\($0) at \(times[$0]!.timeIntervalSince(killedAt)) s" }
            }
            print("Lost: \(times)\n\(cluster.events())")
        }
        #expect(
            lost.isEmpty,
            "acknowledged saves missing after the failover: \(lost); killed at \(killedAt); the monitor's events:\n\(cluster.events())"
        )
        let phantom = failed.keys.filter(storedSet.contains)
        #expect(phantom.isEmpty, "saves reported failed, yet stored: \(phantom.map { "\($0) (\(failed[$0]!))" })")
        let unexplained = storedSet.subtracting(acknowledged).subtracting(unknown)
        #expect(unexplained.isEmpty, "rows nobody was told were stored or might be: \(unexplained)")
        let resumed = tally.resumed.withLock { $0 }
        #expect(
            resumed != nil,
            "writes succeed again after the failover; the last failure: \(tally.lastFailure.withLock { $0 })")
        #expect(try ["primary", "wait_primary", "single"].contains(cluster.states()[1]))

        let kinds = Dictionary(grouping: failed.values, by: { "\($0)" }).mapValues(\.count)
        let window = resumed.map { "\($0 - killed)" } ?? "never"
        print(
            "Failover under writes: writes succeeded again \(window) after the kill; "
                + "\(acknowledged.count) saves acknowledged, \(failed.count) failed \(kinds), "
                + "\(unknown.count) commitOutcomeUnknown (\(unknown.filter(storedSet.contains).count) found stored)")
    }
}
#endif
