import DBBCore
import DBBSQLite
import Foundation

/// Starts `executable` and kills it with SIGKILL `delay` seconds after it printed `marker`
/// (after it started, when `marker` is `nil`), unless it ended first; returns its output.
/// Timing from the marker keeps the kills inside the work however loaded the machine is.
public func runAndKill(_ executable: URL, _ arguments: [String], after delay: Double, from marker: String? = nil)
    throws -> (output: String, killed: Bool)
{
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    let output = Locked(Data())
    pipe.fileHandleForReading.readabilityHandler = { handle in
        let data = handle.availableData
        output.withLock { $0.append(data) }
    }
    try process.run()
    if let marker {
        let markerData = Data(marker.utf8)
        while process.isRunning && output.withLock({ $0.range(of: markerData) == nil }) { usleep(1_000) }
    }
    let deadline = Date().addingTimeInterval(delay)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    let killed = process.isRunning
    if killed { kill(process.processIdentifier, SIGKILL) }
    _ = waitForExit(process)
    pipe.fileHandleForReading.readabilityHandler = nil
    let rest = ChildOutput.collect(process, [pipe]).data[0]
    return (String(decoding: output.withLock { $0 } + rest, as: UTF8.self), killed)
}
