import DBBSQLite
import Foundation
import Logging
import Synchronization

/// The save in progress on a manager's writer connection. Only read and written inside
/// ``DBBManager/write(_:_:)``, which holds the writer lock: `@unchecked Sendable`.
final class ActiveSave: @unchecked Sendable {
    /// The thread running ``session``, 0 when none.
    private let owner = Atomic<UInt>(0)
    private var running: SaveSession?

    var session: SaveSession? {
        get { running }
        set {
            running = newValue
            owner.store(newValue == nil ? 0 : WriterThread.current(), ordering: .releasing)
        }
    }

    /// The session, when the calling thread is the one running it (a save hook's read, which
    /// takes no writer lock); `nil` on any other thread, which never touches it.
    var sessionOfCallingThread: SaveSession? {
        owner.load(ordering: .acquiring) == WriterThread.current() ? running : nil
    }
}
