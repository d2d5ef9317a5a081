import Foundation

/// What a timed operation leaves to check after the clock stops: computes its checksum.
typealias Check = () -> Int
/// A timed operation.
typealias Operation = () throws -> Check

/// One contender of a workload: a name, and a preparation run before the clock starts (files,
/// connections, managers, seed data) that returns the timed operation. The operation returns
/// what computes its checksum (a row count, a sum of every value), run after the clock stops:
/// reading back what a fetch made is the caller's work, not the fetch's.
struct Contender {
    let name: String
    let prepare: () throws -> Operation

    /// A contender with nothing to prepare, its checksum computed inside the clock (a count
    /// it has anyway).
    init(name: String, run: @escaping () throws -> Int) {
        self.name = name
        self.prepare = {
            {
                let value = try run()
                return { value }
            }
        }
    }

    private init(name: String, preparing: @escaping () throws -> Operation) {
        self.name = name
        self.prepare = preparing
    }

    /// A contender whose `prepare` (untimed) returns the timed operation, which returns a count.
    static func prepared(_ name: String, _ prepare: @escaping () throws -> () throws -> Int) -> Contender {
        Contender(
            name: name,
            preparing: {
                let run = try prepare()
                return {
                    let value = try run()
                    return { value }
                }
            })
    }

    /// A contender whose `prepare` (untimed) returns the timed operation, which returns its check.
    static func preparedChecked(_ name: String, _ prepare: @escaping () throws -> Operation) -> Contender {
        Contender(name: name, preparing: prepare)
    }

    /// A contender with nothing to prepare whose operation returns its check.
    static func checked(_ name: String, _ operation: @escaping Operation) -> Contender {
        Contender(name: name, preparing: { operation })
    }
}

/// The timed region: the operation only. Not inlined, so that `valgrind --tool=callgrind
/// --toggle-collect='*timedRegion*'` counts exactly what the clock times.
@inline(never)
func timedRegion(_ operation: Operation) rethrows -> Check {
    try operation()
}

/// A performance goal: `contender` takes at most `maximum` times what `baseline` takes.
/// Contenders are named by a part of their name.
struct Goal {
    let contender: String
    let baseline: String
    let maximum: Double
}

/// A workload: contenders timed on the same data, their checksums compared.
struct Workload {
    let name: String
    let summary: String
    let goals: [Goal]
    let contenders: [Contender]
    /// The checksum every contender must return (a row count, a sum…).
    let expectedChecksum: Int
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}

/// The best and the median of a contender's runs, in seconds.
struct Timing {
    let best: Double
    let median: Double
}

/// Runs every contender once to warm up, then `iterations` rounds in which each contender runs
/// once, so drift of a noisy machine falls on all of them alike. Each run prepares first, off
/// the clock. Checks every checksum.
/// - Returns: each contender's best and median wall time, in contender order.
func measure(_ workload: Workload, iterations: Int) throws -> [Timing] {
    func timed(_ contender: Contender) throws -> Double {
        let operation = try contender.prepare()
        let start = DispatchTime.now().uptimeNanoseconds
        let check = try timedRegion(operation)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let checksum = check()
        guard checksum == workload.expectedChecksum else {
            throw BenchmarkError(
                description:
                    "\(workload.name) / \(contender.name): checksum \(checksum), expected \(workload.expectedChecksum)")
        }
        return seconds
    }
    for contender in workload.contenders { _ = try timed(contender) }
    var times = Array(repeating: [Double](), count: workload.contenders.count)
    for _ in 0..<iterations {
        for (index, contender) in workload.contenders.enumerated() { times[index].append(try timed(contender)) }
    }
    return times.map { runs in
        let sorted = runs.sorted()
        return Timing(best: sorted[0], median: sorted[sorted.count / 2])
    }
}

/// Prepares and runs each contender once after one warm-up run, untimed: for counting
/// instructions under callgrind (`--toggle-collect='*timedRegion*'`), which then counts the
/// same run the clock times in ``measure(_:iterations:)`` — one after a warm-up (a manager's
/// reader connection open and its statements prepared, as in a program that has run a while).
/// Checks every checksum.
func runOnce(_ workload: Workload) throws {
    for contender in workload.contenders {
        _ = try contender.prepare()()
        let checksum = try timedRegion(try contender.prepare())()
        guard checksum == workload.expectedChecksum else {
            throw BenchmarkError(
                description:
                    "\(workload.name) / \(contender.name): checksum \(checksum), expected \(workload.expectedChecksum)")
        }
        print("\(workload.name) / \(contender.name): ran once")
    }
}

/// Runs every contender and prints a Markdown table: median, ratio to the first contender.
func report(_ workload: Workload, iterations: Int) throws {
    print("\n### \(workload.name)\n\n\(workload.summary)\n")
    print("| contender | best | median | ratio (best) | ratio (median) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    let timings = try measure(workload, iterations: iterations)
    let medians = timings.map(\.median)
    for (contender, timing) in zip(workload.contenders, timings) {
        print(
            "| \(contender.name) | \(format(timing.best)) | \(format(timing.median)) | "
                + "\(String(format: "%.2f×", timing.best / timings[0].best)) | \(String(format: "%.2f×", timing.median / timings[0].median)) |"
        )
    }
    func median(_ part: String) -> (String, Double)? {
        zip(workload.contenders, medians).first { $0.0.name.contains(part) }.map { ($0.0.name, $0.1) }
    }
    for goal in workload.goals {
        guard let (name, time) = median(goal.contender), let (base, baseTime) = median(goal.baseline) else { continue }
        let ratio = time / baseTime
        let bound = goal.maximum == 1 ? "faster than" : String(format: "≤ %g×", goal.maximum)
        print(
            String(
                format: "\nGoal: %@ %@ %@ — measured %.2f× (medians), %@", name, bound, base, ratio,
                ratio <= goal.maximum ? "met" : "MISSED"), terminator: "")
    }
    if !workload.goals.isEmpty { print() }
}

func format(_ seconds: Double) -> String {
    seconds >= 1
        ? String(format: "%.2f s", seconds)
        : seconds >= 1e-3
            ? String(format: "%.1f ms", seconds * 1e3)
            : String(format: "%.2f µs", seconds * 1e6)
}

/// Prepares each contender, then runs it once and prints how much its run raised the process's
/// peak resident memory over what the process held when the run started (`VmHWM` after, less
/// `VmRSS` before; the kernel's peak is reset first through `/proc/self/clear_refs`). Run one
/// contender a process (`--contender`): memory a run freed stays in the allocator and would
/// hide the next contender's. Checks every checksum.
func reportMemory(_ workload: Workload) throws {
    for contender in workload.contenders {
        let operation = try contender.prepare()
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = memoryStatus("VmRSS")
        let checksum = try operation()()
        let peak = memoryStatus("VmHWM")
        guard checksum == workload.expectedChecksum else {
            throw BenchmarkError(
                description:
                    "\(workload.name) / \(contender.name): checksum \(checksum), expected \(workload.expectedChecksum)")
        }
        print(
            String(
                format: "%@ / %@: peak RSS +%.1f MiB (%.1f MiB before the run)", workload.name, contender.name,
                Double(peak - before) / 1024, Double(before) / 1024))
    }
}

/// A field of `/proc/self/status` in KiB (`VmRSS`, `VmHWM`); 0 where there is none.
private func memoryStatus(_ field: String) -> Int {
    // Read with stdio: a /proc file has no size, and Foundation's whole-file reads see none.
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field + ":") {
            return Int(text.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
        }
    }
    return 0
}
