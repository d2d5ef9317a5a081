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

    private static func temporaryPrefix(of output: URL) -> String { ".\(output.lastPathComponent).dbb-build-" }

    /// Removes what killed builds of `output` left, then creates and locks a new temporary.
    init(output: URL) throws {
        self.output = output
        let folder = output.deletingLastPathComponent()
        Self.removeAbandonedTemporaries(of: output)
        for _ in 0..<8 {
            let candidate = folder.appendingPathComponent(Self.temporaryPrefix(of: output) + UUID().uuidString)
            let descriptor = open(candidate.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw DBBScriptError(.fileSystem, "cannot create a file in \(folder.path): \(String(cString: strerror(errno)))")
            }
            // Between open and flock another build may have taken the file for abandoned and
            // removed it: keep it only if the name still leads to the locked file.
            var locked = stat()
            var named = stat()
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &locked) == 0,
               stat(candidate.path, &named) == 0, locked.st_ino == named.st_ino, locked.st_dev == named.st_dev {
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
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { remove(path) }
            close(descriptor)
        }
    }

    // MARK: - Installing

    /// Refuses early what ``install(replacing:)`` would refuse at the end: an existing output
    /// without `replacing`, or one that is not a database file the user may write.
    static func check(_ output: URL, replacing: Bool) throws {
        var existing = stat()
        guard lstat(output.path, &existing) == 0 else { return }
        guard replacing else { throw DBBScriptError(.outputExists, "\(output.path) exists; use --force to replace it") }
        try checkReplaceable(output.path, existing)
    }

    /// Makes the temporary durable and puts it in place of the output.
    ///
    /// - Throws: ``DBBScriptError`` `.outputExists` when the output exists and `replacing` is
    ///   false; `.outputInUse` when someone has it open; `.fileSystem` when a file operation fails.
    func install(replacing: Bool) throws {
        defer { for suffix in Self.sideSuffixes { unlink(temporary.path + suffix) } }  // a persistent journal, say
        let target = output.path
        var existing = stat()
        let exists = lstat(target, &existing) == 0
        if exists && replacing {
            try Self.checkReplaceable(target, existing)
            // The new file takes the old one's permissions (and owner, where allowed).
            fchmod(lock, existing.st_mode & 0o7777)
            if existing.st_uid != getuid() || existing.st_gid != getgid() { _ = fchown(lock, existing.st_uid, existing.st_gid) }
        }
        guard fsync(lock) == 0 else { throw fileError("cannot write \(temporary.path) to disk") }
        if !replacing {
            Self.removeSideFiles(of: target)  // a log without its database would be replayed onto the new one
            guard link(temporary.path, target) == 0 else {
                if errno == EEXIST { throw DBBScriptError(.outputExists, "\(target) exists; use --force to replace it") }
                throw fileError("cannot create \(target)")
            }
            unlink(temporary.path)
        } else {
            let guardConnection = try lockOutput()
            defer { guardConnection?.close() }
            let (others, own) = OpenFileHolders.holders(of: target)
            if let pid = others.first {
                throw DBBScriptError(.outputInUse, "\(target) is open in process \(pid): close it there before replacing it")
            }
            if own > (guardConnection == nil ? 0 : 1) {
                throw DBBScriptError(.outputInUse, "\(target) is open in this process: close it before replacing it")
            }
            Self.removeSideFiles(of: target)
            guard rename(temporary.path, target) == 0 else { throw fileError("cannot move the built database to \(target)") }
        }
        release()
        let folder = open(output.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Refuses to replace what is not a database file the user may write: a folder, a device,
    /// a data file or script given as the output by mistake, a write-protected file.
    private static func checkReplaceable(_ path: String, _ status: stat) throws {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw DBBScriptError(.fileSystem, "\(path) is \(kind == S_IFDIR ? "a folder" : "not a regular file"): --force replaces database files only")
        }
        guard access(path, W_OK) == 0 else {
            throw DBBScriptError(.fileSystem, "\(path) is write-protected: make it writable to replace it")
        }
        guard status.st_size > 0 else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var header = [UInt8](repeating: 0, count: 16)
        let count = descriptor >= 0 ? read(descriptor, &header, 16) : -1
        if descriptor >= 0 { close(descriptor) }
        guard count == 16, header == Array("SQLite format 3\0".utf8) else {
            throw DBBScriptError(.fileSystem, "\(path) is not an SQLite database: --force replaces databases only")
        }
    }

    private static func removeSideFiles(of path: String) {
        for suffix in sideSuffixes { unlink(path + suffix) }
    }

    private func fileError(_ message: String) -> DBBScriptError {
        DBBScriptError(.fileSystem, "\(message): \(String(cString: strerror(errno)))")
    }

    /// An exclusive lock on the output, held by the connection returned (or `nil` when the
    /// output is missing or not a database): granted only when no other connection has the
    /// file in WAL mode or is reading or writing it. A hot journal is rolled back on the way
    /// and a WAL log folded in, so the old file is consistent until it is replaced.
    private func lockOutput() throws -> SQLiteConnection? {
        guard FileManager.default.fileExists(atPath: output.path) else { return nil }
        var configuration = SQLiteConfiguration()
        configuration.access = .readWrite
        configuration.journalMode = nil
        configuration.busyTimeout = .seconds(2)
        let inUse = DBBScriptError(.outputInUse, "\(output.path) is in use by another connection: close it before replacing it")
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: output.path, configuration: configuration)
        } catch let error as SQLiteError where error.code == .notADatabase {
            return nil
        } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
            throw inUse
        } catch let error as SQLiteError {
            throw DBBScriptError(.fileSystem, "cannot open \(output.path) to check that no one uses it: \(error.message)", sqliteError: error)
        }
        do {
            if connection.isReadOnly {
                // A write-protected file: a shared lock at least shows a writer at work.
                try connection.execute("BEGIN")
                try connection.execute("SELECT count(*) FROM sqlite_master")
                return connection
            }
            if try connection.fetchValue("PRAGMA journal_mode", as: String.self) == "wal" {
                // Leaving WAL needs every other connection gone; it folds the log in.
                let mode = try connection.fetchValue("PRAGMA journal_mode = DELETE", as: String.self)
                guard mode == "delete" else { throw inUse }
            }
            try connection.execute("BEGIN EXCLUSIVE")
            return connection
        } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
            connection.close()
            throw inUse
        } catch {
            connection.close()
            throw error
        }
    }
}
