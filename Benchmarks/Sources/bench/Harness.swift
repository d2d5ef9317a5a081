import Foundation

/// One contender of a workload: a name and a run that returns a checksum.
struct Contender {
    let name: String
    let run: () throws -> Int
}

/// A workload: contenders timed on the same data, their checksums compared.
struct Workload {
    let name: String
    let summary: String
    /// What the ratio of each contender to the first is expected to be, for the report.
    let goal: String?
    let contenders: [Contender]
    /// The checksum every contender must return (a row count, a sum…).
    let expectedChecksum: Int
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}

/// The median wall time of `iterations` runs, after one warm-up, and the checksum.
func measure(_ contender: Contender, iterations: Int) throws -> (median: Double, checksum: Int) {
    var checksum = try contender.run()
    var times: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        checksum = try contender.run()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    return (times[times.count / 2], checksum)
}

/// Runs every contender and prints a Markdown table: median, ratio to the first contender.
func report(_ workload: Workload, iterations: Int) throws {
    print("\n### \(workload.name)\n\n\(workload.summary)\n")
    print("| contender | median | ratio |")
    print("| --- | ---: | ---: |")
    var baseline: Double?
    for contender in workload.contenders {
        let (median, checksum) = try measure(contender, iterations: iterations)
        guard checksum == workload.expectedChecksum else {
            throw BenchmarkError(description:
                "\(workload.name) / \(contender.name): checksum \(checksum), expected \(workload.expectedChecksum)")
        }
        let ratio = baseline.map { median / $0 } ?? 1
        if baseline == nil { baseline = median }
        print("| \(contender.name) | \(format(median)) | \(String(format: "%.2f×", ratio)) |")
    }
    if let goal = workload.goal { print("\nGoal: \(goal)") }
}

func format(_ seconds: Double) -> String {
    seconds >= 1 ? String(format: "%.2f s", seconds)
        : seconds >= 1e-3 ? String(format: "%.1f ms", seconds * 1e3)
        : String(format: "%.2f µs", seconds * 1e6)
}
