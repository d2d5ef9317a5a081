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
            if let suffix = sideSuffixes.first(where: { name.hasSuffix($0) }) {
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

    /// Makes the temporary durable and puts it in place of the output.
    ///
    /// - Throws: ``DBBScriptError`` `.outputExists` when the output exists and `replacing` is
    ///   false; `.outputInUse` when someone has it open; `.fileSystem` when a file operation fails.
    func install(replacing: Bool) throws {
        guard fsync(lock) == 0 else { throw fileError("cannot write \(temporary.path) to disk") }
        let target = output.path
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
        close(lock)
        lock = -1
        let folder = open(output.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
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
