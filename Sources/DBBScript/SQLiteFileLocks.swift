import Foundation

/// The byte-range locks SQLite's unix VFS takes on a database file and its `-shm`, read and
/// taken with `fcntl` so that an output can be checked and held without opening it in SQLite
/// (which could change it: roll back a journal, fold in a log).
///
/// POSIX locks belong to the process, and closing any descriptor of a file drops all of them:
/// use these only when this process has no SQLite connection to the file.
enum SQLiteFileLocks {
    /// `PENDING_BYTE`, then the `RESERVED` byte and the 510 `SHARED` bytes: a connection that
    /// reads or writes holds some of them; in WAL mode it holds a shared one while it is open.
    private static let start: off_t = 0x4000_0000
    private static let length: off_t = 512
    /// The `-shm` byte every connection that has the WAL index open holds a read lock on.
    private static let walIndexInUse: off_t = 128

    /// Whether another process holds any SQLite lock on the database open as `descriptor`.
    static func isDatabaseLocked(_ descriptor: Int32) -> Bool {
        isLocked(descriptor, start, length)
    }

    /// Whether another process has the WAL index of the `-shm` open as `descriptor`.
    static func isWALIndexInUse(_ descriptor: Int32) -> Bool {
        isLocked(descriptor, walIndexInUse, 1)
    }

    /// Takes SQLite's EXCLUSIVE lock (a write lock over all its lock bytes) on the file open
    /// for writing as `descriptor`, without waiting: SQLite connections that open the file
    /// meanwhile wait (busy) until it is released. Returns whether it was granted.
    static func lockExclusively(_ descriptor: Int32) -> Bool {
        var lock = region(F_WRLCK, start, length)
        return fcntl(descriptor, F_SETLK, &lock) == 0
    }

    /// Releases what ``lockExclusively(_:)`` took.
    static func unlock(_ descriptor: Int32) {
        var lock = region(F_UNLCK, start, length)
        _ = fcntl(descriptor, F_SETLK, &lock)
    }

    private static func isLocked(_ descriptor: Int32, _ start: off_t, _ length: off_t) -> Bool {
        var lock = region(F_WRLCK, start, length)
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return true }  // cannot tell: assume in use
        return lock.l_type != Int16(F_UNLCK)
    }

    private static func region(_ type: Int32, _ start: off_t, _ length: off_t) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        return lock
    }
}
