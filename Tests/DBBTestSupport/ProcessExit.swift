import DBBCore
import Foundation

/// Waits until `process` ends and returns its exit status, or 128 + the number of the signal
/// that ended it.
///
/// Foundation on Linux can miss a child's exit when many processes start and end at once (as in
/// a parallel test run): the child stays a zombie and `waitUntilExit()` never returns — seen
/// once, in a CI run, in `TwoProcessTests.openTogether`. This polls and reaps the child itself
/// when Foundation has not, so a missed notification costs 10 ms, not the test run.
///
/// It may be called again for the same process (as ``ChildOutput/collect(_:_:grace:)`` does after
/// a test waited): a child it reaped is no longer Foundation's to report, so its status is kept.
public func waitForExit(_ process: Process) -> Int32 {
    let pid = process.processIdentifier
    let key = ObjectIdentifier(process)
    if let (reapedPID, status) = reapedChildren.withLock({ $0[key] }), reapedPID == pid { return status }
    while process.isRunning {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            let signal = status & 0x7f
            let result = signal == 0 ? (status >> 8) & 0xff : 128 + signal
            reapedChildren.withLock { $0[key] = (pid, result) }
            return result
        }
        usleep(10_000)
    }
    return process.terminationStatus
}

/// The children ``waitForExit(_:)`` reaped itself, with their pid (an object's identifier may be
/// reused once it is gone) and exit status.
private let reapedChildren = Locked<[ObjectIdentifier: (Int32, Int32)]>([:])
