import Foundation

/// One contender of a workload: a name and a run that returns a checksum.
struct Contender {
    let name: String
    let run: () throws -> Int
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

/// Runs every contender once to warm up, then `iterations` rounds in which each contender runs
/// once, so drift of a noisy machine falls on all of them alike. Checks every checksum.
/// - Returns: each contender's median wall time, in contender order.
func measure(_ workload: Workload, iterations: Int) throws -> [Double] {
    func timed(_ contender: Contender) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let checksum = try contender.run()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard checksum == workload.expectedChecksum else {
            throw BenchmarkError(description:
                "\(workload.name) / \(contender.name): checksum \(checksum), expected \(workload.expectedChecksum)")
        }
        return seconds
    }
    for contender in workload.contenders { _ = try timed(contender) }
    var times = Array(repeating: [Double](), count: workload.contenders.count)
    for _ in 0..<iterations {
        for (index, contender) in workload.contenders.enumerated() { times[index].append(try timed(contender)) }
    }
    return times.map { $0.sorted()[$0.count / 2] }
}

/// Runs every contender and prints a Markdown table: median, ratio to the first contender.
func report(_ workload: Workload, iterations: Int) throws {
    print("\n### \(workload.name)\n\n\(workload.summary)\n")
    print("| contender | median | ratio |")
    print("| --- | ---: | ---: |")
    let medians = try measure(workload, iterations: iterations)
    for (contender, median) in zip(workload.contenders, medians) {
        print("| \(contender.name) | \(format(median)) | \(String(format: "%.2f×", median / medians[0])) |")
    }
    func median(_ part: String) -> (String, Double)? {
        zip(workload.contenders, medians).first { $0.0.name.contains(part) }.map { ($0.0.name, $0.1) }
    }
    for goal in workload.goals {
        guard let (name, time) = median(goal.contender), let (base, baseTime) = median(goal.baseline) else { continue }
        let ratio = time / baseTime
        let bound = goal.maximum == 1 ? "faster than" : String(format: "≤ %.1f×", goal.maximum)
        print(String(format: "\nGoal: %@ %@ %@ — measured %.2f×, %@", name, bound, base, ratio,
                     ratio <= goal.maximum ? "met" : "MISSED"), terminator: "")
    }
    if !workload.goals.isEmpty { print() }
}

func format(_ seconds: Double) -> String {
    seconds >= 1 ? String(format: "%.2f s", seconds)
        : seconds >= 1e-3 ? String(format: "%.1f ms", seconds * 1e3)
        : String(format: "%.2f µs", seconds * 1e6)
}
