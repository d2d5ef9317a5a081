import DBBSQLite

// MARK: - Table-object dates for SQLite's own date functions

extension DBBLocaleFunctions {
    /// `dbb_date(date)`: the date as `YYYY-MM-DD HH:MM:SS[.SSS]` in UTC, text that SQLite's
    /// `date()`, `datetime()` and `strftime()` read (see ``SQLiteDateTime``).
    static func dateTextFunction() -> SQLiteFunction {
        SQLiteFunction("dbb_date", argumentCount: 1) { arguments in
            guard let date = SQLiteDateTime(arguments, at: 0) else { return .null }
            return .text(date.text)
        }
    }

    /// `dbb_unixepoch(date)`: the date as a REAL number of seconds since 1970-01-01 UTC, for
    /// `strftime(format, dbb_unixepoch(date), 'unixepoch')`.
    static func unixEpochFunction() -> SQLiteFunction {
        SQLiteFunction("dbb_unixepoch", argumentCount: 1) { arguments in
            guard let date = SQLiteDateTime(arguments, at: 0) else { return .null }
            return .real(date.secondsSince1970)
        }
    }
}
