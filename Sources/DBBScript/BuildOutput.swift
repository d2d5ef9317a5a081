import DBBCore
import DBBSQLite
import Foundation

/// The file a build writes, a temporary beside the output, and the output's replacement.
///
/// A temporary is named `.OUTPUT.dbb-build-UUID` and its build holds an exclusive `flock` on
/// it for as long as it runs (an `flock` does not meddle with SQLite's own `fcntl` locks). One
/// that nobody holds was left by a killed build: the next build of the same output removes it,
/// with its `-journal`, `-wal` and `-shm`.
///
/// The output is replaced only when no one uses it: SQLite must grant an exclusive lock on it
/// (a WAL connection or a transaction elsewhere refuses it), and `/proc` must show no other
/// process with it open. Its `-journal`, `-wal` and `-shm` go before the new file takes its
/// place, so SQLite never replays an old log onto it.
final class BuildOutput {
    let output: URL
    let temporary: URL
    private var lock: Int32

    static let sideSuffixes = ["-journal", "-wal", "-shm"]

    /// The temporaries of the builds running in this process.
    static let active = Locked(Set<String>())

    /// Removes the temporaries of every build running in this process (with their side files).
    static func removeActiveTemporaries() {
        for path in active.withLock({ $0 }) { remove(path) }
    }

    private var temporaryPrefix: String { Self.temporaryPrefix(of: output) }

    /// `.NAME.dbb-build-`; for a name too long to take a UUID after it (a file name holds 255
    /// bytes), `.dbb-build-HASH-` with a hash of the name.
    private static func temporaryPrefix(of output: URL) -> String {
        let name = output.lastPathComponent
        let prefix = ".\(name).dbb-build-"
        guard prefix.utf8.count + 36 + "-journal-old".utf8.count > 255 else { return prefix }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return ".dbb-build-\(String(hash, radix: 16))-"
    }

    /// Removes what killed builds of `output` left, then creates and locks a new temporary.
    init(output: URL) throws {
        self.output = output
        let folder = output.deletingLastPathComponent()
        Self.removeAbandonedTemporaries(of: output)
        for _ in 0..<8 {
            let candidate = folder.appendingPathComponent(Self.temporaryPrefix(of: output) + UUID().uuidString)
            let descriptor = open(candidate.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw DBBScriptError(
                    .fileSystem, "cannot create a file in \(folder.path): \(String(cString: strerror(errno)))")
            }
            // Between open and flock another build may have taken the file for abandoned and
            // removed it: keep it only if the name still leads to the locked file.
            var locked = stat()
            var named = stat()
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &locked) == 0,
                stat(candidate.path, &named) == 0, locked.st_ino == named.st_ino, locked.st_dev == named.st_dev
            {
                temporary = candidate
                lock = descriptor
                _ = Self.active.withLock { $0.insert(candidate.path) }
                return
            }
            close(descriptor)
        }
        throw DBBScriptError(.fileSystem, "cannot create a temporary build file in \(folder.path)")
    }

    deinit { discard() }

    /// Removes the temporary and its side files, and lets go of its lock.
    func discard() {
        guard lock >= 0 else { return }
        Self.remove(temporary.path)
        release()
    }

    /// Lets go of the lock, and of the temporary's place in ``active``.
    private func release() {
        _ = Self.active.withLock { $0.remove(temporary.path) }
        close(lock)
        lock = -1
    }

    /// Removes `path` and its `-journal`, `-wal` and `-shm`.
    private static func remove(_ path: String) {
        for suffix in [""] + sideSuffixes { unlink(path + suffix) }
    }

    /// Temporaries of `output` whose build is gone: their lock is free.
    private static func removeAbandonedTemporaries(of output: URL) {
        let folder = output.deletingLastPathComponent().path
        let prefix = temporaryPrefix(of: output)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = folder + "/" + name
            let suffix = sideSuffixes.first(where: { name.hasSuffix($0) }) ?? ""
            // Only names a build makes: the prefix, a UUID, perhaps a side-file suffix.
            guard UUID(uuidString: String(name.dropFirst(prefix.count).dropLast(suffix.count))) != nil else { continue }
            if !suffix.isEmpty {
                // A side file whose temporary is gone.
                if access(String(path.dropLast(suffix.count)), F_OK) != 0 { unlink(path) }
                continue
            }
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, isDatabaseOrEmpty(path) { remove(path) }
            close(descriptor)
        }
    }

    // MARK: - Installing

    /// Refuses early what ``install(replacing:)`` would refuse at the end: an output that is
    /// not a file, an existing output without `replacing`, one in use or not a database file
    /// the user may write.
    static func check(_ output: URL, replacing: Bool) throws {
        let target = output.path
        var existing = stat()
        guard lstat(target, &existing) == 0 else { return }
        let kind = existing.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw DBBScriptError(
                .fileSystem, "\(target) is \(kind == S_IFDIR ? "a folder" : "not a regular file"), not a database file")
        }
        guard replacing else { throw Self.exists(target) }
        try refuseIfOpen(target)
        try checkReplaceable(target, existing)
    }

    /// Makes the temporary durable and puts it in place of the output.
    ///
    /// - Throws: ``DBBScriptError`` `.outputExists` when the output exists and `replacing` is
    ///   false; `.outputInUse` when someone has it open; `.fileSystem` when a file operation
    ///   fails. The output is then as it was, byte for byte, with its side files.
    func install(replacing: Bool) throws {
        defer { for suffix in Self.sideSuffixes { unlink(temporary.path + suffix) } }  // a persistent journal, say
        let target = output.path
        var existing = stat()
        if lstat(target, &existing) == 0 {
            guard replacing else { throw Self.exists(target) }
            try replace(existing)
        } else {
            guard fsync(lock) == 0 else { throw fileError("cannot write \(temporary.path) to disk") }
            Self.removeSideFiles(of: target)  // a log without its database would be replayed onto the new one
            guard link(temporary.path, target) == 0 else {
                if errno == EEXIST { throw Self.exists(target) }
                throw fileError("cannot create \(target)")
            }
            unlink(temporary.path)
        }
        release()
        let folder = open(output.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Replaces the existing output, unless anyone uses it: no other process may have it open
    /// (`/proc`), nor hold an SQLite lock on it or its WAL index. Both files are locked the way
    /// SQLite locks them while the new one takes the name and the old side files go, so no
    /// connection reads either in between; anything that fails before the new file is in place
    /// leaves the old one and its side files as they were.
    private func replace(_ existing: stat) throws {
        let target = output.path
        // First, without opening the file: closing a descriptor would drop this process's locks.
        try Self.refuseIfOpen(target)
        try Self.checkReplaceable(target, existing)

        let old = open(target, O_RDWR | O_CLOEXEC)
        guard old >= 0 else { throw fileError("cannot open \(target)") }
        defer { close(old) }
        let inUse = DBBScriptError(
            .outputInUse, "\(target) is in use by another connection: close it before replacing it")
        let index = open(target + "-shm", O_RDONLY | O_CLOEXEC)
        if index >= 0 {
            let used = SQLiteFileLocks.isWALIndexInUse(index)
            close(index)
            if used { throw inUse }
        }
        guard !SQLiteFileLocks.isDatabaseLocked(old), SQLiteFileLocks.lockExclusively(old) else { throw inUse }
        guard SQLiteFileLocks.lockExclusively(lock) else { throw fileError("cannot lock \(temporary.path)") }
        defer { SQLiteFileLocks.unlock(lock) }

        // The new file takes the old one's permissions (and owner, where allowed).
        fchmod(lock, existing.st_mode & 0o7777)
        if existing.st_uid != getuid() || existing.st_gid != getgid() {
            _ = fchown(lock, existing.st_uid, existing.st_gid)
        }
        guard fsync(lock) == 0 else { throw fileError("cannot write \(temporary.path) to disk") }

        // The old side files step aside (back if anything fails), so none meets the new file.
        var moved: [(from: String, to: String)] = []
        func restore() { for move in moved.reversed() { rename(move.to, move.from) } }
        for suffix in Self.sideSuffixes where access(target + suffix, F_OK) == 0 {
            let aside = temporary.path + suffix + "-old"
            guard rename(target + suffix, aside) == 0 else {
                let error = fileError("cannot move \(target + suffix) aside")
                restore()
                throw error
            }
            moved.append((target + suffix, aside))
        }
        guard rename(temporary.path, target) == 0 else {
            let error = fileError("cannot move the built database to \(target)")
            restore()
            throw error
        }
        for move in moved { unlink(move.to) }
    }

    /// Refuses to replace what is not a database file the user may write: a folder, a device,
    /// a data file or script given as the output by mistake, a write-protected file.
    private static func checkReplaceable(_ path: String, _ status: stat) throws {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw DBBScriptError(
                .fileSystem, "\(path) is \(kind == S_IFDIR ? "a folder" : "not a regular file"), not a database file")
        }
        guard access(path, W_OK) == 0 else {
            throw DBBScriptError(.fileSystem, "\(path) is write-protected: make it writable to replace it")
        }
        guard isDatabaseOrEmpty(path) else {
            throw DBBScriptError(.fileSystem, "\(path) is not an SQLite database: --force replaces databases only")
        }
    }

    /// The error for an output that exists when replacing it was not asked for.
    private static func exists(_ target: String) -> DBBScriptError {
        DBBScriptError(.outputExists, "\(target) exists; use --force to replace it")
    }

    /// Refuses an output that another process, or this one, has open (`/proc`).
    private static func refuseIfOpen(_ target: String) throws {
        let (others, own) = OpenFileHolders.holders(of: target)
        if let pid = others.first {
            throw DBBScriptError(
                .outputInUse, "\(target) is open in process \(pid): close it there before replacing it")
        }
        if own > 0 {
            throw DBBScriptError(.outputInUse, "\(target) is open in this process: close it before replacing it")
        }
    }

    /// Whether the file at `path` is empty or starts with SQLite's header.
    private static func isDatabaseOrEmpty(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &header, 16)
        return count == 0 || (count == 16 && header == Array("SQLite format 3\0".utf8))
    }

    private static func removeSideFiles(of path: String) {
        for suffix in sideSuffixes { unlink(path + suffix) }
    }

    private func fileError(_ message: String) -> DBBScriptError {
        DBBScriptError(.fileSystem, "\(message): \(String(cString: strerror(errno)))")
    }
}
