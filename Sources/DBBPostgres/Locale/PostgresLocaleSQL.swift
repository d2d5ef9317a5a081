#if Postgres
import DBBCore
import DBBLocale

/// The locale date functions as PostgreSQL functions: the SQLite functions' names, argument
/// orders, results, `NULL`s and errors (see `DBBLocaleFunctions`), computed by the server
/// from the week rules of each locale, which a table (`dbb_locale_rules`) holds.
///
/// A date is `double precision` seconds since 2001-01-01 UTC, as table objects store it (an
/// integer or `numeric` converts), or text in the forms the SQLite functions read. The
/// functions of a numeric date are `LANGUAGE sql IMMUTABLE`, written as one expression that
/// the planner inlines: with a constant locale, `dbb_week(date, 'de_DE')` becomes integer and
/// date arithmetic on the column, the locale's rules looked up once, when the query is planned.
/// Days are counted on the proleptic Gregorian calendar at every year (the SQLite functions
/// follow Foundation's Julian calendar before 1582).
enum PostgresLocaleSQL {
    /// Changes whenever the SQL below changes: a manager that finds another version installed
    /// replaces the functions.
    static let version = "DBBBuilder locale functions \(versionNumber)"
    /// The number at the end of ``version``; a database with a higher one has the functions of a
    /// newer library, which an older one leaves alone.
    static let versionNumber = 6

    /// The number at the end of an installed version's text.
    static func versionNumber(of text: String) -> Int? {
        guard text.hasPrefix("DBBBuilder locale functions ") else { return nil }
        return Int(text.dropFirst("DBBBuilder locale functions ".count))
    }

    /// How many rows of Foundation's locales (identifiers without `@keywords`: the only plain
    /// identifiers `addLocaleRules` accepts are Foundation's own) have every name; run once
    /// ``installedVersion`` found the table.
    static let completeRows =
        "SELECT count(*)::text FROM \(rulesTable) WHERE position('@' IN identifier) = 0"
        + " AND cardinality(names) = \(DBBLocaleSymbols.Set.allCases.reduce(0) { $0 + $1.count })"

    /// The table of week rules, one row per normalized locale identifier.
    static let rulesTable = "dbb_locale_rules"

    // MARK: - Expressions

    /// Seconds since 1970 of the numeric date `$1` (seconds since 2001).
    static let since1970 = "($1 + 978307200)"
    /// Whether seconds since 1970 `s` lie in 0001-01-01 ..< 10000-01-01.
    static func inRange(_ s: String) -> String { "\(s) >= -62135596800 AND \(s) < 253402300800" }
    /// The day (days since 1970) of seconds since 1970 `s`.
    static func day(_ s: String) -> String { "floor(\(s) / 86400)::int" }
    /// The first day of the week of day `n`, under rules `r` (first weekday × 8 + minimum days).
    static func weekStart(_ n: String, _ r: String) -> String { "(\(n) - ((\(n) % 7) + 19 - \(r) / 8) % 7)" }
    /// The date of day `n`.
    static func date(_ n: String) -> String { "(date '1970-01-01' + \(n))" }

    /// `yyyy-MM-dd` of the date `d` (five digits for the year 10000; `0000` for 1 BC, whose
    /// last days begin the week of 0001-01-01, as the SQLite functions write it).
    static func dayText(_ d: String) -> String {
        let digits =
            "(date_part('year', \(d)) * 10000 + date_part('month', \(d)) * 100 + date_part('day', \(d)))::int::text"
        let monthDay = "(date_part('month', \(d)) * 100 + date_part('day', \(d)))::int::text"
        return
            "CASE WHEN \(d) < date '0001-01-01' THEN '0000-' || overlay(lpad(\(monthDay), 4, '0') placing '-' from 3 for 0)"
            + " WHEN \(d) < date '10000-01-01' THEN overlay(overlay(lpad(\(digits), 8, '0') placing '-' from 7 for 0)"
            + " placing '-' from 5 for 0) ELSE overlay(overlay(\(digits) placing '-' from 8 for 0) placing '-' from 6 for 0) END"
    }

    /// `YYYY-ww` of seconds since 1970 `s` under rules `r`: the year and week-of-year of the
    /// week's anchor, the day at `7 - minimum days` into the week, which lies in the year the
    /// week belongs to; its week is counted from January 1st, as `to_char`'s `WW` counts.
    ///
    /// `to_char` is `STABLE` (some of its fields follow the session's settings; `YYYY` and `WW`
    /// do not), so `dbb_week` is `STABLE` too: an `IMMUTABLE` function must not call it, and an
    /// all-arithmetic `IMMUTABLE` form (two `date_part`s, `lpad`, `overlay`) made the weekly
    /// `GROUP BY` over 1,000,000 rows 2.06× PostgreSQL's own `to_char(d, 'IYYY-IW')`, where
    /// this one is 1.1×.
    static func weekKey(_ s: String, _ r: String) -> String {
        let anchor = date("(\(weekStart(day(s), r)) + 7 - \(r) % 8)")
        return "CASE WHEN \(inRange(s)) THEN to_char(\(anchor), 'YYYY-WW') END"
    }

    /// `yyyy-MM-dd` of the start or end of the unit holding seconds since 1970 `s`; `code` is
    /// rules × 100 + unit × 10 + edge (units: day, week, month, quarter, halfyear, year;
    /// edges: start, end), a constant once the arguments are checked.
    static func aligned(_ s: String, _ code: String) -> String {
        let n = day(s)
        let d = date(n)
        let rules = "(\(code) / 100)"
        let week = weekStart(n, rules)
        let timestamp = "\(d)::timestamp"
        let halfYear =
            "make_date(date_part('year', \(d))::int, CASE WHEN date_part('month', \(d)) <= 6 THEN 1 ELSE 7 END, 1)"
        let starts = [
            d, date(week), "date_trunc('month', \(timestamp))::date", "date_trunc('quarter', \(timestamp))::date",
            halfYear, "date_trunc('year', \(timestamp))::date",
        ]
        let months = [0, 0, 1, 3, 6, 12]
        var cases: [String] = []
        for unit in 0..<6 {
            cases.append("WHEN \(unit * 10) THEN \(dayText(starts[unit]))")
            let end =
                switch unit {
                case 0: d
                case 1: date("(\(week) + 6)")
                default: "((\(starts[unit]))::timestamp + interval '\(months[unit]) months')::date - 1"
                }
            cases.append("WHEN \(unit * 10 + 1) THEN \(dayText(end))")
        }
        return "CASE WHEN \(inRange(s)) THEN CASE \(code) % 100 \(cases.joined(separator: " ")) END END"
    }

    /// `Q1 '11` of seconds since 1970 `s`.
    static func quarter(_ s: String) -> String {
        let d = date(day(s))
        return "CASE WHEN \(inRange(s)) THEN 'Q' || ((date_part('month', \(d))::int - 1) / 3 + 1)::text || ' '''"
            + " || lpad((date_part('year', \(d))::int % 100)::text, 2, '0') END"
    }

    /// The year of seconds since 1970 `s`, written with two digits (`short`) or four, and
    /// whether it is in the first half.
    static func halfYear(_ s: String, _ short: String, _ h1: String, _ h2: String) -> String {
        let d = date(day(s))
        let year =
            "CASE WHEN \(short) THEN lpad((date_part('year', \(d))::int % 100)::text, 2, '0')"
            + " ELSE lpad(date_part('year', \(d))::int::text, 4, '0') END"
        return
            "CASE WHEN \(inRange(s)) THEN nullif(dbb_half_year_text(CASE WHEN date_part('month', \(d)) <= 6 THEN \(h1) ELSE \(h2) END,"
            + " \(year)), '') END"
    }

    // MARK: - Statements

    /// A row of the rules table: a locale's week rules, digits and names.
    struct Rules {
        let identifier: String
        let firstWeekday: Int
        let minimumDays: Int
        /// ``DBBLocaleSymbols/flattened``.
        let names: [String]
    }

    /// Every function the install creates, helpers included: what `CREATE OR REPLACE FUNCTION`
    /// names in ``helpers`` and ``functions``.
    static let routines: [String] = helpers + functions

    /// The names of ``routines``, in lower case as PostgreSQL keeps them (`dbb_week`,
    /// `objcformatansidateusinglocale`).
    static let routineNames: Set<String> = Set(
        signatures.map { String($0[..<($0.firstIndex(of: "(") ?? $0.endIndex)]).lowercased() })

    /// The signatures of ``routines`` (`dbb_week(double precision, text)`).
    static let signatures: [String] = routines.map { statement in
        let afterName = statement.range(of: "FUNCTION ")!.upperBound
        return String(statement[afterName..<statement.range(of: " RETURNS ")!.lowerBound])
    }

    /// The installed version (the comment of `dbb_week`), `NULL` when none is installed or when
    /// the table or any function is missing (dropped by hand: the install puts it back).
    static let installedVersion: String = {
        let present =
            ["to_regclass('\(rulesTable)') IS NOT NULL"]
            + signatures.map { "to_regprocedure(\(literal($0))) IS NOT NULL" }
        return "SELECT CASE WHEN " + present.joined(separator: " AND ")
            + " THEN obj_description(to_regprocedure('dbb_week(double precision, text)'), 'pg_proc') END"
    }()

    /// The identifiers in the rules table (kept across an upgrade), once ``createTable`` ran.
    static let storedIdentifiers = "SELECT identifier FROM \(rulesTable)"

    /// The statement that creates the rules table when it is missing (an older version's table
    /// gets the names column).
    static let createTable = [
        "CREATE TABLE IF NOT EXISTS \(rulesTable) (identifier text PRIMARY KEY,"
            + " first_weekday smallint NOT NULL CHECK (first_weekday BETWEEN 1 AND 7),"
            + " minimum_days smallint NOT NULL CHECK (minimum_days BETWEEN 1 AND 7))",
        "ALTER TABLE \(rulesTable) ADD COLUMN IF NOT EXISTS names text[]",
    ]

    /// `INSERT` statements of `rules`, replacing the rows of the same identifiers.
    static func insert(_ rules: [Rules]) -> [String] {
        stride(from: 0, to: rules.count, by: 250).map { chunk in
            let rows = rules[chunk..<min(chunk + 250, rules.count)].map {
                "(\(literal($0.identifier)), \($0.firstWeekday), \($0.minimumDays), ARRAY[\($0.names.map(literal).joined(separator: ","))]::text[])"
            }
            return "INSERT INTO \(rulesTable) (identifier, first_weekday, minimum_days, names) VALUES "
                + rows.joined(separator: ", ")
                + " ON CONFLICT (identifier) DO UPDATE SET first_weekday = EXCLUDED.first_weekday,"
                + " minimum_days = EXCLUDED.minimum_days, names = EXCLUDED.names"
        }
    }

    /// The statements that install the table, its rows and the functions, replacing what an
    /// earlier version installed. `rules` holds every identifier the table is to keep.
    static func install(rules: [Rules]) -> [String] {
        var statements =
            createTable + [
                "DELETE FROM \(rulesTable)",
                // Every role that may call the functions reads the rules (the functions run as the caller).
                "GRANT SELECT ON \(rulesTable) TO PUBLIC",
            ]
        statements += insert(rules)
        statements += routines
        statements.append("COMMENT ON FUNCTION dbb_week(double precision, text) IS \(literal(version))")
        return statements
    }

    /// The statements that remove the functions and the table (`manager.uninstallLocaleFunctions()`),
    /// with the functions of earlier versions.
    static let uninstall: [String] = [
        "DROP FUNCTION IF EXISTS " + signatures.reversed().joined(separator: ", "),
        "DROP TABLE IF EXISTS \(rulesTable)",
    ]

    static func literal(_ text: String) -> String { SQLQuoting.literal(text) }

    /// `CREATE OR REPLACE FUNCTION name(arguments) RETURNS type LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT body $$`
    ///
    /// A `STABLE` function's body is wrapped in a test of `statement_timestamp()`, itself
    /// `STABLE`: PostgreSQL inlines the function and judges the inlined expression, which
    /// without it would be made of `IMMUTABLE` helpers only — and an expression index or a
    /// generated column over it would silently keep results of week rules or names that a
    /// later install replaced. The test costs one C call per row.
    static func sql(_ signature: String, _ returns: String, _ body: String, volatility: String = "IMMUTABLE") -> String
    {
        let guarded =
            volatility == "STABLE" ? "CASE WHEN statement_timestamp() IS NULL THEN NULL ELSE \(body) END" : body
        return
            "CREATE OR REPLACE FUNCTION \(signature) RETURNS \(returns) LANGUAGE sql \(volatility) PARALLEL SAFE AS $$ SELECT \(guarded) $$"
    }

    /// `NAME_p`, a PL/pgSQL twin of SQL function NAME, for the text-date forms. They pass NAME
    /// `dbb_text_seconds(…)`, an argument the planner takes as costly; as NAME uses its
    /// arguments more than once, the planner does not inline it there but calls it, and a SQL
    /// function called starts an executor of its own each row (some 10 µs). In the twin NAME's
    /// arguments are variables, so NAME is inlined into one expression, planned once.
    static func twin(_ name: String, _ arguments: [String], _ returns: String, volatility: String = "IMMUTABLE")
        -> String
    {
        let parameters = arguments.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        return "CREATE OR REPLACE FUNCTION \(name)_p(\(arguments.joined(separator: ", "))) RETURNS \(returns)"
            + " LANGUAGE plpgsql \(volatility) PARALLEL SAFE AS $$ BEGIN RETURN \(name)(\(parameters)); END $$"
    }

    static func plpgsql(_ signature: String, _ returns: String, _ body: String) -> String {
        "CREATE OR REPLACE FUNCTION \(signature) RETURNS \(returns) LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$ \(body) $$"
    }
}
#endif
