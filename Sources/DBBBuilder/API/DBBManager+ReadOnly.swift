extension DBBManager {
    /// Whether the manager was opened read-only: an SQLite file opened with
    /// ``init(url:readOnly:logger:)`` (or one the process may not write), a PostgreSQL
    /// configuration with `readOnly` set.
    ///
    /// Such a manager reads as any other. ``register(_:)`` only checks that the tables and
    /// columns it maps exist and may be read. Every write through the table objects — saves
    /// (one, a batch, conditional, async), deletes, `deleteAll`, ``copy(_:)`` and
    /// ``copyTables(of:from:)`` into it, ``setDatabaseVersion(_:)``, ``vacuum()``,
    /// ``removeIndex(named:)`` — is refused before any SQL is sent, with
    /// ``DBBError/Kind/readOnly``; raw SQL that writes is refused by the database
    /// (`SQLITE_READONLY`, SQLSTATE `25006`).
    public var isReadOnly: Bool { access.isReadOnly }

    /// Refuses `action`, a write through the table objects, on a read-only manager, before
    /// anything is sent (see ``isReadOnly``). (`action` is worded only then: a save pays nothing.)
    @_spi(DBBBackend)
    public func refuseWriteIfReadOnly(_ action: @autoclosure () -> String, table: String? = nil) throws(DBBError) {
        guard access.isReadOnly else { return }
        throw DBBError(
            .readOnly, table: table,
            "\(databaseLabel) was opened read-only, so \(action()) is refused; nothing was sent to the database. "
                + "Write through a manager opened without readOnly (and, on PostgreSQL, a role that may write)")
    }
}
