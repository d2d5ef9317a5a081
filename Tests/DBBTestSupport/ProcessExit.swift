import Foundation

/// Waits until `process` ends and returns its exit status, or 128 + the number of the signal
/// that ended it.
///
/// Foundation on Linux can miss a child's exit when many processes start and end at once (as in
/// a parallel test run): the child stays a zombie and `waitUntilExit()` never returns — seen
/// once, in a CI run, in `TwoProcessTests.openTogether`. This polls and reaps the child itself
/// when Foundation has not, so a missed notification costs 10 ms, not the test run.
public func waitForExit(_ process: Process) -> Int32 {
    let pid = process.processIdentifier
    while process.isRunning {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
        }
        usleep(10_000)
    }
    return process.terminationStatus
}
