import DBBLocale
import DBBSQLite
import Foundation

/// Builds a database from a script in the sqlite3 shell's language, as `sqlite3 OUTPUT < script`
/// would: SQL statements, and the dot commands `.mode`, `.separator`, `.import`, `.read`,
/// `.bail`, `.print`, `.exit` (plus `.headers`, `.nullvalue`, `.echo`, `.changes`, `.timer`,
/// `.schema` and `.tables`, which only concern output).
///
/// ```swift
/// let report = try DBBScriptRunner.build(
///     script: URL(fileURLWithPath: "schema.txt"), output: URL(fileURLWithPath: "food.sqlite"))
/// for (table, rows) in report.importedRows { print(table, rows) }
/// ```
///
/// The script is split and run the way the shell does it: each
/// statement in its own transaction unless the script opens one, foreign keys off unless the
/// script turns them on, so `VACUUM`, `PRAGMA page_size`, `PRAGMA journal_mode = WAL` and the
/// script's own transactions give what the shell gives. The build writes a temporary file
/// beside `output`, which takes `output`'s place only once the whole script succeeded.
///
/// Stricter than the shell: any error stops the build (as `.bail on`), a script that ends
/// inside its own transaction is an error (the shell would roll it back silently), and what
/// the shell only warns about in `.import` — a record whose field count differs from the
/// table's columns, a quote left open, a stray quote — is an error naming `file:line`.
public enum DBBScriptRunner {
    /// The files building `script` reads: the script itself, the files its `.import` commands
    /// import and the scripts its `.read` commands run (and what those read), as far as they
    /// exist, names resolved as a build resolves them. A build tool rebuilds when one of them
    /// changes; it may hold more than a build reads (a line inside a multi-line statement that
    /// starts with a dot), never less.
    public static func inputFiles(of script: URL) -> [URL] {
        DotCommand.filesRead(by: script)
    }

    /// Runs `script` into a new database at `output`.
    ///
    /// - Parameters:
    ///   - script: the script file; the file names of its dot commands are relative to its folder.
    ///   - output: the database file to create (through a temporary file beside it).
    ///   - replacing: when `output` exists, replace it (only once the build succeeded) rather
    ///     than refuse. It is replaced only when no other connection has it open.
    ///   - logging: how the build's connection logs its statements (each script statement
    ///     and each imported row's `INSERT`); `nil` logs nothing.
    ///   - progress: called as `.import`s advance (often: keep it cheap).
    /// - Throws: ``DBBScriptError``: `.script` naming `script:line` (and `file:line` for data),
    ///   `.outputExists`, `.outputInUse` or `.fileSystem`; `output` is then as it was.
    @discardableResult
    public static func build(
        script: URL, output: URL, replacing: Bool = false, logging: StatementLogging? = nil,
        progress: ((DBBImportProgress) -> Void)? = nil
    ) throws -> DBBBuildReport {
        let fileManager = FileManager.default
        // A symbolic link stays: the file it leads to (perhaps not there yet) is what gets built.
        let output = URL(fileURLWithPath: try followingLinks(output.path))
        guard output.standardizedFileURL.path != script.resolvingSymlinksInPath().standardizedFileURL.path else {
            throw DBBScriptError(.fileSystem, "\(output.path) is the script itself")
        }
        try BuildOutput.check(output, replacing: replacing)
        let file = try BuildOutput(output: output)
        let connection: SQLiteConnection
        do {
            var configuration = SQLiteConfiguration()
            configuration.journalMode = nil  // a rollback-journal file, unless the script says WAL
            configuration.foreignKeys = false  // the shell's default
            configuration.doubleQuotedStrings = true  // as the shell reads SQL
            connection = try SQLiteConnection(path: file.temporary.path, configuration: configuration)
            try connection.addLocaleFunctions()
            connection.logging = logging
            // The temporary is thrown away if the build stops: no need to survive a crash
            // while building, and no one else opens it. None of these settings is stored in
            // the file, which is synced once at the end; together they make a statement's own
            // transaction cheap (no journal file, no fsync, no lock calls).
            try connection.execute("PRAGMA journal_mode = MEMORY")
            try connection.execute("PRAGMA synchronous = OFF")
            try connection.execute("PRAGMA main.locking_mode = EXCLUSIVE")
            try connection.execute("PRAGMA cache_size = -65536")
        } catch let error as SQLiteError {
            throw DBBScriptError(
                .fileSystem, "cannot create \(file.temporary.path): \(error.message)", sqliteError: error)
        }
        var session = ScriptSession(connection: connection, progress: progress)
        defer { connection.close() }
        try session.run(script)
        if let start = session.transactionStart {
            throw DBBScriptError(
                script: start.script, line: start.line,
                "the transaction begun here is still open at the end of the script: add COMMIT "
                    + "(the sqlite3 shell would roll it back)")
        }
        connection.close()
        let log = file.temporary.path + "-wal"
        guard !fileManager.fileExists(atPath: log) else {
            throw DBBScriptError(.fileSystem, "the build's write-ahead log \(log) was not folded into the database")
        }
        try file.install(replacing: replacing)
        return session.report
    }

    /// Removes the temporary files of the builds running in this process, for a tool about to
    /// exit on a signal (`SIGINT`, `SIGTERM`): the outputs are untouched. (A later build of the
    /// same output removes what a build killed outright left.)
    public static func removeTemporaryFiles() {
        BuildOutput.removeActiveTemporaries()
    }

    /// The path `path` leads to through symbolic links, the last of which may lead to a file
    /// that does not exist yet (the shell creates it through the link).
    static func followingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            let destination: String
            do {
                destination = try FileManager.default.destinationOfSymbolicLink(atPath: current)
            } catch {
                throw DBBScriptError(.fileSystem, "cannot read the symbolic link \(current)")
            }
            current =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        throw DBBScriptError(.fileSystem, "\(path) leads through too many symbolic links (a loop?)")
    }
}
