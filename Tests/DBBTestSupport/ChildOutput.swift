import DBBCore
import Dispatch
import Foundation

/// What a child process wrote to its pipes, read without waiting on anyone but the child.
public enum ChildOutput {
    /// Reads `pipes` (the child's standard output, error…) all at once while `process` runs, so
    /// that a child filling one pipe never waits for another to be read, and returns its exit
    /// status and what each pipe held.
    ///
    /// A pipe's end is not waited for beyond `grace` after the child exited: a process that a
    /// concurrent test started at the same moment inherits the pipe's write end (Foundation's
    /// pipes are not close-on-exec), and the PostgreSQL test server's watchdogs live until the
    /// test process ends, so reading "to the end" could wait for ever. By the time the child
    /// exited, all it wrote is in the pipe and read within the grace.
    public static func collect(_ process: Process, _ pipes: [Pipe], grace: TimeInterval = 30) -> (
        status: Int32, data: [Data]
    ) {
        let buffers = pipes.map { _ in Locked(Data()) }
        let group = DispatchGroup()
        for (pipe, buffer) in zip(pipes, buffers) {
            group.enter()
            DispatchQueue.global().async {
                let handle = pipe.fileHandleForReading
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    buffer.withLock { $0.append(chunk) }
                }
                group.leave()
            }
        }
        let status = waitForExit(process)
        _ = group.wait(timeout: .now() + grace)
        return (status, buffers.map { $0.withLock { $0 } })
    }
}
