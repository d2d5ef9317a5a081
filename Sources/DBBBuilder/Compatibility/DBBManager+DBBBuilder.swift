import Foundation

/// DBBBuilder's names on the manager, kept for porting: `Bool`, optional and non-throwing
/// forms that report a failure through ``DBBManager/errorMessage()``. Each calls the throwing
/// form it names (see <doc:PortingFromDBBBuilder>).
extension DBBManager {
    // MARK: - Opening and folders

    /// DBBBuilder's initializer: opens the database at `databaseURL`. When it cannot be
    /// opened, every later operation fails and ``errorMessage()`` says why.
    public convenience init(databaseURL: URL) {
        self.init(databaseURL: databaseURL, opened: Self.openAccess(databaseURL))
    }

    /// DBBBuilder-style form of ``init(url:templateURL:)``: a failure is reported by ``errorMessage()``.
    public convenience init(databaseURL: URL, templateURL: URL) {
        do {
            try Self.copyTemplate(templateURL, to: databaseURL)
            self.init(databaseURL: databaseURL)
        } catch {
            self.init(databaseURL: databaseURL)
            _ = recordingErrors { throw error }
        }
    }

    /// DBBBuilder's name for ``inMemory()``.
    public static func inMemoryDatabaseManager() -> DBBManager {
        // Opening :memory: only fails when memory is exhausted.
        (try? inMemory()) ?? DBBManager(databaseURL: URL(fileURLWithPath: ":memory:"))
    }

    /// DBBBuilder's name for ``inDocumentsFolder(named:tableClasses:)``. When the database
    /// cannot be opened there, every operation of the manager fails; when a class cannot be
    /// registered, the manager works for the others (as ``addTableClasses(_:)``). Either way
    /// ``errorMessage()`` says why.
    public static func createDatabaseInDocumentsFolder(named name: String, tableClasses: [DBBTableObject.Type])
        -> DBBManager
    {
        registering(tableClasses) { () throws(DBBError) in
            try opened(named: name) { () throws(DBBError) in try created(documentsFolder) }
        }
    }

    /// DBBBuilder's name for ``inAppSupportFolder(named:subFolders:tableClasses:)``; failures as
    /// in ``createDatabaseInDocumentsFolder(named:tableClasses:)``.
    public static func createDatabaseInAppSupportFolder(
        named name: String, subFolders: String?,
        with tableClasses: [DBBTableObject.Type]
    ) -> DBBManager {
        registering(tableClasses) { () throws(DBBError) in
            try opened(named: name) { () throws(DBBError) in try appSupportFolderCreated(subFolders) }
        }
    }

    /// The manager `open` gives with `tableClasses` added DBBBuilder's way, or, when it cannot
    /// be opened, a manager whose every operation fails with that error.
    private static func registering(
        _ tableClasses: [DBBTableObject.Type],
        _ open: () throws(DBBError) -> DBBManager
    ) -> DBBManager {
        do {
            let manager = try open()
            manager.addTableClasses(tableClasses)
            return manager
        } catch {
            return DBBManager(unavailable: error)
        }
    }

    // MARK: - Schema

    /// DBBBuilder's name for ``register(_:)``; a failure is reported by ``errorMessage()``.
    public func addTableClasses(_ tableClasses: [DBBTableObject.Type]) {
        _ = recordingErrors { try register(tableClasses) }
    }

    // MARK: - Counts and maintenance

    /// DBBBuilder's name for ``count(of:)``; 0 on failure.
    public func countForTable(_ tableName: String) -> Int {
        recordingErrors { try count(of: tableName) } ?? 0
    }

    /// DBBBuilder's name for ``vacuum()``.
    public func vacuumDB() {
        _ = recordingErrors { try vacuum() }
    }

    /// DBBBuilder's name for ``removeIndex(named:)``; `false` on failure.
    @discardableResult
    public func dropIndex(named indexName: String) -> Bool {
        recordingErrors { try removeIndex(named: indexName) } != nil
    }

    // MARK: - Versions

    /// DBBBuilder's check: whether the recorded version is at least `currentVersion`, and the recorded version.
    public func hasLatestDBVersion(currentVersion: Double) -> (hasLatest: Bool, version: Double) {
        let version = recordingErrors { try databaseVersion() } ?? 0
        return (version >= currentVersion && version > 0, version)
    }

    /// DBBBuilder's name for ``setDatabaseVersion(_:)``.
    public func setCurrentDBVersion(_ version: Double) {
        _ = recordingErrors { try setDatabaseVersion(version) }
    }

    // MARK: - Errors

    /// The error of the last operation reported with a `Bool` or optional result (DBBBuilder's
    /// style), or `nil` when it succeeded: each such operation sets or clears it as it finishes.
    ///
    /// "Last" is per manager, not per thread: when two threads run such operations on one
    /// manager, the one that finished last decides, whichever thread asks. Code that needs the
    /// outcome of its own operation uses the throwing forms (``DBBTableObject/save()-82mr9``,
    /// ``register(_:)``…), whose errors belong to the caller. The throwing forms leave it alone.
    public var lastError: DBBError? { lastErrorStorage.withLock { $0 } }

    /// DBBBuilder's `errorMessage()`: the description of ``lastError``, or `""` when the last
    /// DBBBuilder-style operation succeeded.
    public func errorMessage() -> String { lastError?.description ?? "" }

    /// Runs a throwing form for a DBBBuilder-style caller: the result with the last error
    /// cleared, or `nil` with the error recorded.
    func recordingErrors<T>(_ body: () throws -> T) -> T? {
        try? recordingOutcome(body).get()
    }

    /// Runs a throwing form for a DBBBuilder-style caller that also wants the error: the
    /// result with the last error cleared, or the error, recorded as the last error.
    func recordingOutcome<T>(_ body: () throws -> T) -> Result<T, DBBError> {
        let outcome: Result<T, DBBError>
        do {
            outcome = .success(try body())
        } catch {
            outcome = .failure(
                error as? DBBError
                    ?? (error as? any DatabaseFailure).map { DBBError.backend($0, table: nil) }
                    ?? DBBError(.invalidOption, "\(error)"))
        }
        lastErrorStorage.withLock { last in
            if case .failure(let failure) = outcome { last = failure } else { last = nil }
        }
        return outcome
    }
}
