import DBBSQLite
import Foundation

/// The locale-aware date functions for SQLite. Registered by ``registerFunctions(on:)`` on a
/// raw `sqlite3*`, by ``DBBSQLite/SQLiteConnection/addLocaleFunctions()`` on a connection, and
/// by the DBBBuilder manager on every connection it opens.
///
/// | SQL | result |
/// | --- | --- |
/// | `dbb_format_date(format, date, locale)` | `date` formatted with the TR35 pattern `format`, as `DateFormatter` does (Gregorian, UTC) |
/// | `ObjcFormatAnsiDateUsingLocale(format, date, locale)` | the same, under ESLocale's name |
/// | `dbb_week(date, locale)` | `YYYY-ww`, a sortable week key in ASCII digits: `2011-02` (the week-year 10000 of late 9999 has five digits, `10000-01`, and sorts as text before `9999-52`) |
/// | `dbb_week_start(date, locale)` | `yyyy-MM-dd` of the first day of the week of `date` |
/// | `dbb_align(date, unit, locale, edge)` | `yyyy-MM-dd` of the `'start'` or `'end'` of the day/week/month/quarter/halfyear/year of `date` |
/// | `ObjcGetYearAndQuarterUsingLocale(date, locale)` | `Q1 '11` |
/// | `ObjcGetYearAndHalfYearUsingLocale(date, locale, h1Format, h2Format, yearMode)` | `h1Format` or `h2Format` with `%@` replaced by the year, two digits for `'short'`, four for `'long'`, `%%` by `%`; any other `%` stays as written |
/// | `dbb_date(date)` | `YYYY-MM-DD HH:MM:SS` in UTC, with `.SSS` when the milliseconds are not zero, for SQLite's `date()`, `datetime()`, `strftime()`: `date(dbb_date(startTime))` |
/// | `dbb_unixepoch(date)` | REAL seconds since 1970-01-01 UTC: `strftime('%Y-%W', dbb_unixepoch(startTime), 'unixepoch')` |
///
/// A date is TEXT (`2011-01-02`, `2011-01-02 13:45:00`, `2011-01-02T13:45:00.250+03:00`, spaces
/// around ignored) or a number of seconds since 2001-01-01 UTC, the way table objects store a
/// `Date`. Dates from 0001-01-01 through 9999-12-31 (UTC) are accepted; results can still
/// have five-digit years (the week-year 10000 of 9999-12-31 in en_US, a week ending on
/// 10000-01-01), and a week that starts in 1 BC starts in year `0000`.
///
/// `dbb_date` and `dbb_unixepoch` count as SQLite's date functions do: on the proleptic Gregorian
/// calendar at every year, a number rounded to the millisecond as `datetime(number + 978307200,
/// 'unixepoch')` rounds it.
///
/// - A `NULL` date gives `NULL` in the `dbb_` functions; ESLocale's three functions refuse it
///   with an error, as ESLocale did.
/// - A date that does not parse or lies outside the years above (`1e15`, `inf`) gives `NULL`.
/// - An empty result (an empty format, h1Format or h2Format) is `NULL`, as ESLocale gave.
/// - Any other `NULL` argument, an unknown locale, unit, edge or year mode is an SQL error
///   naming the function and the argument, quoting at most 80 characters of it.
public enum DBBLocaleFunctions {
    /// The SQL names of the functions, with their argument counts.
    public static let signatures: [(name: String, argumentCount: Int)] = [
        ("dbb_format_date", 3), ("ObjcFormatAnsiDateUsingLocale", 3), ("dbb_week", 2),
        ("dbb_week_start", 2), ("dbb_align", 4), ("ObjcGetYearAndQuarterUsingLocale", 2),
        ("ObjcGetYearAndHalfYearUsingLocale", 5), ("dbb_date", 1), ("dbb_unixepoch", 1),
    ]

    /// Installs every function on the raw `sqlite3*` handle `db`, e.g. one opened by GRDB
    /// (`db.sqliteConnection`) or by C code. Each registration keeps its own small caches.
    public static func register(on db: OpaquePointer) throws {
        for function in makeFunctions() { try function.register(on: db) }
    }

    /// Fresh function values, with caches of their own.
    static func makeFunctions() -> [SQLiteFunction] {
        [
            formatFunction("dbb_format_date"),
            formatFunction("ObjcFormatAnsiDateUsingLocale"),
            weekFunction(),
            weekStartFunction(),
            alignFunction(),
            quarterFunction(),
            halfYearFunction(),
            dateTextFunction(),
            unixEpochFunction(),
        ]
    }

    // MARK: - Functions

    private static func formatFunction(_ name: String) -> SQLiteFunction {
        let reader = ArgumentReader(function: name, names: ["format", "date", "locale"])
        return SQLiteFunction(name, argumentCount: 3) { arguments in
            try reader.requireNonNull(arguments)
            let pattern = reader.pattern(arguments, at: 0)
            let locale = try reader.locale(arguments, at: 2)
            guard let date = ResolvedDate(arguments, at: 1) else { return .null }
            if let day = date.formatterDay, let digits = locale.digits,
                let text = pattern.format(day, calendar: locale.calendar, digits: digits)
            {
                return nonEmpty(text)
            }
            return nonEmpty(FoundationDates.format(date.date, pattern: pattern.text, locale: locale))
        }
    }

    /// `text`, or `NULL` for an empty result, as ESLocale gave.
    private static func nonEmpty(_ text: String) -> SQLiteValue {
        text.isEmpty ? .null : .text(text)
    }

    private static let weekKeyPattern = DatePattern("YYYY-ww")

    /// A function of `(date, locale)`: checks both, gives NULL for a date that does not parse
    /// (and, in a `dbb_` function, for a NULL date).
    private static func dateAndLocaleFunction(
        _ name: String, _ body: @escaping @Sendable (ResolvedDate, LocaleInfo) -> SQLiteValue
    ) -> SQLiteFunction {
        let reader = ArgumentReader(function: name, names: ["date", "locale"])
        return SQLiteFunction(name, argumentCount: 2) { arguments in
            try reader.requireNonNull(arguments)
            let locale = try reader.locale(arguments, at: 1)
            guard let date = ResolvedDate(arguments, at: 0) else { return .null }
            return body(date, locale)
        }
    }

    private static func weekFunction() -> SQLiteFunction {
        dateAndLocaleFunction("dbb_week") { date, locale in
            if let day = date.day, let key = weekKeyPattern.format(day, calendar: locale.calendar, digits: .ascii) {
                return .text(key)
            }
            let parts = FoundationDates.gregorian(locale.calendar)
                .dateComponents([.yearForWeekOfYear, .weekOfYear], from: date.date)
            return .text(
                ASCIIDigits.pad(parts.yearForWeekOfYear ?? 0, 4) + "-" + ASCIIDigits.pad(parts.weekOfYear ?? 0, 2))
        }
    }

    private static func weekStartFunction() -> SQLiteFunction {
        dateAndLocaleFunction("dbb_week_start") { date, locale in
            aligned(date, to: .week, edge: .start, locale: locale)
        }
    }

    private static func alignFunction() -> SQLiteFunction {
        let reader = ArgumentReader(function: "dbb_align", names: ["date", "unit", "locale", "edge"])
        return SQLiteFunction("dbb_align", argumentCount: 4) { arguments in
            try reader.requireNonNull(arguments)
            let unit = try reader.choice(
                arguments, at: 1, DBBDateUnit.init(sqlName:),
                expected: "day, week, month, quarter, halfyear or year")
            let locale = try reader.locale(arguments, at: 2)
            let edge = try reader.choice(
                arguments, at: 3, DBBAlignmentEdge.init(sqlName:), expected: "start or end")
            guard let date = ResolvedDate(arguments, at: 0) else { return .null }
            return aligned(date, to: unit, edge: edge, locale: locale)
        }
    }

    private static func aligned(_ date: ResolvedDate, to unit: DBBDateUnit, edge: DBBAlignmentEdge, locale: LocaleInfo)
        -> SQLiteValue
    {
        if let day = date.day {
            return .text(locale.calendar.align(day, to: unit, edge: edge).description)
        }
        let calendar = FoundationDates.gregorian(locale.calendar)
        guard let result = FoundationDates.align(date.date, to: unit, edge: edge, calendar) else { return .null }
        return .text(FoundationDates.dayText(result, calendar))
    }

    /// Year and month of `date`: arithmetic, or Foundation's calendar before 1600.
    private static func yearAndMonth(_ date: ResolvedDate, _ locale: LocaleInfo) -> (year: Int, month: Int) {
        if let day = date.day { return (day.year, day.month) }
        let parts = FoundationDates.gregorian(locale.calendar).dateComponents([.year, .month], from: date.date)
        return (parts.year ?? 0, parts.month ?? 1)
    }

    private static func quarterFunction() -> SQLiteFunction {
        dateAndLocaleFunction("ObjcGetYearAndQuarterUsingLocale") { date, locale in
            let (year, month) = yearAndMonth(date, locale)
            return .text("Q\((month - 1) / 3 + 1) '" + ASCIIDigits.pad(year % 100, 2))
        }
    }

    private static func halfYearFunction() -> SQLiteFunction {
        let name = "ObjcGetYearAndHalfYearUsingLocale"
        let reader = ArgumentReader(function: name, names: ["date", "locale", "h1Format", "h2Format", "yearMode"])
        let formats = [ArgumentMemo<HalfYearFormat>(), ArgumentMemo<HalfYearFormat>()]
        return SQLiteFunction(name, argumentCount: 5) { arguments in
            try reader.requireNonNull(arguments)
            let locale = try reader.locale(arguments, at: 1)
            let shortYear = try reader.choice(
                arguments, at: 4,
                { mode -> Bool? in
                    switch mode.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "short": true
                    case "long": false
                    default: nil
                    }
                }, expected: "short or long")
            guard let date = ResolvedDate(arguments, at: 0) else { return .null }
            let (year, month) = yearAndMonth(date, locale)
            let half = month <= 6 ? 0 : 1
            let format = reader.compiled(arguments, at: 2 + half, in: formats[half], HalfYearFormat.init)
            return nonEmpty(format.text(year: ASCIIDigits.pad(shortYear ? year % 100 : year, shortYear ? 2 : 4)))
        }
    }
}

/// Installs the locale date functions on a raw `sqlite3*` handle; see ``DBBLocaleFunctions``.
///
/// ```swift
/// try DBBLocale.registerFunctions(on: handle)
/// ```
public func registerFunctions(on db: OpaquePointer) throws {
    try DBBLocaleFunctions.register(on: db)
}

extension SQLiteConnection {
    /// Installs the locale date functions (``DBBLocaleFunctions``) on this connection.
    ///
    /// ```swift
    /// let db = try SQLiteConnection(path: "usage.sqlite")
    /// try db.addLocaleFunctions()
    /// let weeks = try db.fetchAll("""
    ///     SELECT dbb_week(Date, 'en_US') AS week, SUM(Value) / SUM(Visits)
    ///     FROM Usage GROUP BY week ORDER BY week
    ///     """) { ($0.string(at: 0)!, $0.double(at: 1)) }
    /// ```
    public func addLocaleFunctions() throws {
        for function in DBBLocaleFunctions.makeFunctions() { try add(function) }
    }
}
