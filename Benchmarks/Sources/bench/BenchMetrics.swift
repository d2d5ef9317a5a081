import Foundation
import Metrics
import Synchronization

/// The simplest metrics backend that records: every counter, recorder and timer adds to an
/// atomic, so that `bench --metrics` measures what DBBBuilder's recording costs without a real
/// exporter's own work (Prometheus's histograms cost more).
final class CountingMetrics: MetricsFactory {
    private final class Handler: CounterHandler, FloatingPointCounterHandler, RecorderHandler, TimerHandler,
        MeterHandler,
        Sendable
    {
        private let total = Atomic<Int64>(0)
        func increment(by amount: Int64) { total.add(amount, ordering: .relaxed) }
        func increment(by amount: Double) { total.add(Int64(amount), ordering: .relaxed) }
        func reset() { total.store(0, ordering: .relaxed) }
        func record(_ value: Int64) { total.store(value, ordering: .relaxed) }
        func record(_ value: Double) { total.store(Int64(value), ordering: .relaxed) }
        func recordNanoseconds(_ duration: Int64) { total.add(duration, ordering: .relaxed) }
        func set(_ value: Int64) { total.store(value, ordering: .relaxed) }
        func set(_ value: Double) { total.store(Int64(value), ordering: .relaxed) }
        func decrement(by amount: Double) { total.subtract(Int64(amount), ordering: .relaxed) }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { Handler() }
    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        Handler()
    }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Handler()
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Handler() }
    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { Handler() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
}
