import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

#if Postgres
import DBBPostgres
#endif

/// The differential test of typed queries: a few thousand random samples (a seeded generator:
/// `DBB_DIFF_SEED=<n>` tries another seed, a failure names the one it ran), a few hundred
/// random typed queries — conditions × aggregates × groupings by several locales' weeks,
/// quarters, half-years and formatted dates, with HAVING, orders and pages; rows, DISTINCT and
/// typed fetches of objects — each run on the backend and compared with the same question
/// answered in Swift over the fetched objects (Foundation's `Calendar` and `DateFormatter` for
/// the calendar). Both backends meet the same answers, so they give the same ones.
@Suite struct TypedReportDifferentialTests {
    static let sampleCount = 2_500
    static let queryCount = 300

    @Test("random typed reports and fetches give what Swift computes", arguments: Backend.allCases)
    func randomQueries(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Sample.self]) else { return }
        let manager = database.manager
        let seed = DifferentialFixture.seed
        var random = SeededRandom(seed: seed)
        let made = DifferentialFixture.samples(Self.sampleCount, &random, manager)
        try Sample.save(made, manager: manager)
        // Swift answers over the objects as fetched, which must be the ones saved.
        let samples = try Sample.instances(manager: manager)
        #expect(samples.map(\.id) == made.map(\.id), "seed \(seed)")
        for (fetched, saved) in zip(samples, made) where !Self.same(fetched, saved) {
            Issue.record(
                "seed \(seed): sample \(saved.id) reads back as \(Self.describe(fetched)), saved \(Self.describe(saved))"
            )
        }
        #if Postgres
        // Identifiers with keywords are not in PostgreSQL's table of rules until added
        // (see LocaleFunctionsOnPostgreSQL); SQLite reads any identifier Foundation reads.
        if backend == .postgresql {
            try manager.addLocaleRules(for: DifferentialKey.weekLocales.filter { $0.contains("@") })
        }
        #endif
        var run = DifferentialRun(manager: manager, samples: samples, seed: seed)
        for number in 0..<Self.queryCount {
            try run.query(number, &random)
        }
        for failure in run.failures.prefix(10) { Issue.record("\(failure)") }
        #expect(
            run.failures.isEmpty, "seed \(seed), \(backend): \(run.failures.count) of \(Self.queryCount) queries differ"
        )
        // The queries asked something: most found rows, and every kind of query ran.
        #expect(run.nonEmpty > Self.queryCount / 2, "seed \(seed): \(run.nonEmpty) of \(Self.queryCount) found rows")
        #expect(run.kinds.count == DifferentialRun.Kind.allCases.count, "seed \(seed): ran only \(run.kinds)")
    }

    /// Whether the samples hold the same values (`-0.0` is `0.0`: SQLite does not keep the sign
    /// of zero, see IdentityAndChanges).
    static func same(_ a: Sample, _ b: Sample) -> Bool {
        a.amount == b.amount && a.big == b.big && a.score == b.score && a.ratio == b.ratio && a.weight == b.weight
            && a.label.exact == b.label.exact && a.kind == b.kind
            && a.flag == b.flag && a.day == b.day
    }

    static func describe(_ sample: Sample) -> String {
        "(\(sample.amount), \(sample.big), \(String(describing: sample.score)), \(sample.ratio), "
            + "\(String(describing: sample.weight)), \(String(reflecting: sample.label)), \(sample.kind), \(sample.flag), "
            + "\(String(describing: sample.day?.timeIntervalSinceReferenceDate)))"
    }
}
