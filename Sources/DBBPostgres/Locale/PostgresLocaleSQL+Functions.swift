#if Postgres
extension PostgresLocaleSQL {
    /// The checks and conversions the functions share, in PL/pgSQL: they raise the SQLite
    /// functions' errors, with the same words. Declared `IMMUTABLE`, so that with constant
    /// arguments (a locale written in the query) they run once, when the query is planned.
    static let helpers: [String] = [
        // 'text', cut to 80 characters with its length after it, as the SQLite functions quote.
        sql(
            "dbb_quoted(text)", "text",
            "CASE WHEN char_length($1) > 80 THEN '''' || left($1, 80) || '…'' (' || char_length($1) || ' characters)'"
                + " ELSE '''' || $1 || '''' END"),
        // en_US for ' en-us ': the base's subtags joined by _, language lower case, script
        // title case, region upper case; @keywords kept as written.
        "CREATE OR REPLACE FUNCTION dbb_locale_key(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$"
            + " SELECT (SELECT string_agg(CASE WHEN o = 1 THEN lower(s) WHEN length(s) = 4 AND s ~ '^[[:alpha:]]+$' THEN initcap(s)"
            + " ELSE upper(s) END, '_' ORDER BY o) FROM regexp_split_to_table(split_part(t, '@', 1), '[_-]') WITH ORDINALITY AS x(s, o))"
            + " || CASE WHEN position('@' IN t) > 0 THEN '@' || substr(t, position('@' IN t) + 1) ELSE '' END"
            + " FROM (SELECT btrim($1, E' \\t\\n\\r\\f' || chr(11)) AS t) AS p $$",
        plpgsql(
            "dbb_locale_rules_of(text, int, text)", "int",
            """
            DECLARE rules int;
            BEGIN
              IF $3 IS NULL THEN RAISE EXCEPTION '%: argument % (locale) is NULL', $1, $2 USING ERRCODE = '22004'; END IF;
              SELECT first_weekday * 8 + minimum_days INTO rules FROM \(rulesTable) WHERE identifier = dbb_locale_key($3);
              IF rules IS NULL THEN
                RAISE EXCEPTION '%: argument % (locale) % is not an available locale identifier (e.g. ''en_US'', ''ru_RU'')',
                  $1, $2, dbb_quoted($3) USING ERRCODE = '22023';
              END IF;
              RETURN rules;
            END
            """),
        // The index of value in choices, trimmed and lower-cased (and, for a unit, without - and _).
        plpgsql(
            "dbb_choice(text, int, text, text, text[], text)", "int",
            """
            DECLARE chosen int;
            BEGIN
              IF $4 IS NULL THEN RAISE EXCEPTION '%: argument % (%) is NULL', $1, $2, $3 USING ERRCODE = '22004'; END IF;
              chosen := array_position($5, CASE WHEN $3 = 'unit' THEN translate(lower(btrim($4, E' \\t')), '-_', '')
                                                ELSE lower(btrim($4, E' \\t')) END);
              IF chosen IS NULL THEN
                RAISE EXCEPTION '%: argument % (%) % is not %', $1, $2, $3, dbb_quoted($4), $6 USING ERRCODE = '22023';
              END IF;
              RETURN chosen - 1;
            END
            """),
        // dbb_align's arguments in SQLite's order: NULLs, the locale, the unit, the edge.
        plpgsql(
            "dbb_align_code(text, text, text)", "int",
            """
            DECLARE unit int; rules int;
            BEGIN
              IF $1 IS NULL THEN RAISE EXCEPTION 'dbb_align: argument 2 (unit) is NULL' USING ERRCODE = '22004'; END IF;
              IF $2 IS NULL THEN RAISE EXCEPTION 'dbb_align: argument 3 (locale) is NULL' USING ERRCODE = '22004'; END IF;
              IF $3 IS NULL THEN RAISE EXCEPTION 'dbb_align: argument 4 (edge) is NULL' USING ERRCODE = '22004'; END IF;
              unit := dbb_choice('dbb_align', 2, 'unit', $1, ARRAY['day', 'week', 'month', 'quarter', 'halfyear', 'year'],
                                 'day, week, month, quarter, halfyear or year');
              rules := dbb_locale_rules_of('dbb_align', 3, $2);
              RETURN rules * 100 + unit * 10 + dbb_choice('dbb_align', 4, 'edge', $3, ARRAY['start', 'end'], 'start or end');
            END
            """),
        // ObjcGetYearAndHalfYearUsingLocale's arguments after the date: whether the year is short.
        plpgsql(
            "dbb_half_year_short(text, text, text, text)", "boolean",
            """
            DECLARE name text := 'ObjcGetYearAndHalfYearUsingLocale';
            BEGIN
              IF $1 IS NULL THEN RAISE EXCEPTION '%: argument 2 (locale) is NULL', name USING ERRCODE = '22004'; END IF;
              IF $2 IS NULL THEN RAISE EXCEPTION '%: argument 3 (h1Format) is NULL', name USING ERRCODE = '22004'; END IF;
              IF $3 IS NULL THEN RAISE EXCEPTION '%: argument 4 (h2Format) is NULL', name USING ERRCODE = '22004'; END IF;
              IF $4 IS NULL THEN RAISE EXCEPTION '%: argument 5 (yearMode) is NULL', name USING ERRCODE = '22004'; END IF;
              PERFORM dbb_locale_rules_of(name, 2, $1);
              RETURN dbb_choice(name, 5, 'yearMode', $4, ARRAY['short', 'long'], 'short or long') = 0;
            END
            """),
        // ESLocale's functions refuse a NULL date; the date (or, for text, its length) is an
        // argument so that the check runs per row, not when the query is planned (the planner
        // runs an IMMUTABLE function of constants, in any branch of a CASE).
        plpgsql(
            "dbb_null_date(double precision, text)", "text",
            """
            BEGIN
              IF $1 IS NULL THEN RAISE EXCEPTION '%: argument 1 (date) is NULL', $2 USING ERRCODE = '22004'; END IF;
              RETURN NULL;
            END
            """),
        // ESLocale's format function with a NULL date: its first error in SQLite's order.
        // The date (for text, its length) is an argument so that the check runs per row (see dbb_null_date).
        plpgsql(
            "dbb_format_null(text, text, double precision)", "text",
            """
            BEGIN
              IF $3 IS NOT NULL THEN RETURN NULL; END IF;
              IF $1 IS NULL THEN RAISE EXCEPTION '%: argument 1 (format) is NULL', $2 USING ERRCODE = '22004'; END IF;
              RAISE EXCEPTION '%: argument 2 (date) is NULL', $2 USING ERRCODE = '22004';
            END
            """),
        // A half-year format with %@ as the year and %% as %, any other % as written.
        plpgsql(
            "dbb_half_year_text(text, text)", "text",
            """
            DECLARE result text := ''; i int := 1; c text; following text;
            BEGIN
              WHILE i <= length($1) LOOP
                c := substr($1, i, 1);
                following := substr($1, i + 1, 1);
                IF c = '%' AND following = '@' THEN result := result || $2; i := i + 2;
                ELSIF c = '%' AND following = '%' THEN result := result || '%'; i := i + 2;
                ELSE result := result || c; i := i + 1;
                END IF;
              END LOOP;
              RETURN result;
            END
            """),
        textSeconds,
        PostgresDateFormat.namesOf,
        PostgresDateFormat.compile,
        PostgresDateFormat.apply,
        PostgresDateFormat.plan,
        PostgresDateFormat.seconds,
    ]

    /// The function of each SQL name, for a numeric date and for a text date.
    static let functions: [String] =
        [
            sql("dbb_week_of(double precision, int)", "text", weekKey("$1", "$2"), volatility: "STABLE"),
            twin("dbb_week_of", ["double precision", "int"], "text", volatility: "STABLE"),
            sql(
                "dbb_week(double precision, text)", "text",
                "dbb_week_of(\(since1970), dbb_locale_rules_of('dbb_week', 2, $2))",
                volatility: "STABLE"),
            sql(
                "dbb_week(text, text)", "text",
                "dbb_week_of_p(dbb_text_seconds($1, true), dbb_locale_rules_of('dbb_week', 2, $2))",
                volatility: "STABLE"),

            sql(
                "dbb_week_start_of(double precision, int)", "text",
                "CASE WHEN \(inRange("$1")) THEN \(dayText(date(weekStart(day("$1"), "$2")))) END"),
            twin("dbb_week_start_of", ["double precision", "int"], "text"),
            sql(
                "dbb_week_start(double precision, text)", "text",
                "dbb_week_start_of(\(since1970), dbb_locale_rules_of('dbb_week_start', 2, $2))", volatility: "STABLE"),
            sql(
                "dbb_week_start(text, text)", "text",
                "dbb_week_start_of_p(dbb_text_seconds($1, true), dbb_locale_rules_of('dbb_week_start', 2, $2))",
                volatility: "STABLE"),

            sql("dbb_align_of(double precision, int)", "text", aligned("$1", "$2")),
            twin("dbb_align_of", ["double precision", "int"], "text"),
            sql(
                "dbb_align(double precision, text, text, text)", "text",
                "dbb_align_of(\(since1970), dbb_align_code($2, $3, $4))", volatility: "STABLE"),
            sql(
                "dbb_align(text, text, text, text)", "text",
                "dbb_align_of_p(dbb_text_seconds($1, true), dbb_align_code($2, $3, $4))", volatility: "STABLE"),

            sql("dbb_quarter_of(double precision)", "text", quarter("$1")),
            twin("dbb_quarter_of", ["double precision"], "text"),
            sql(
                "ObjcGetYearAndQuarterUsingLocale(double precision, text)", "text",
                "CASE WHEN $1 IS NULL THEN dbb_null_date($1, 'ObjcGetYearAndQuarterUsingLocale') ELSE"
                    + " dbb_quarter_of($1 + 978307200 + 0 * dbb_locale_rules_of('ObjcGetYearAndQuarterUsingLocale', 2, $2)) END",
                volatility: "STABLE"),
            sql(
                "ObjcGetYearAndQuarterUsingLocale(text, text)", "text",
                "CASE WHEN $1 IS NULL THEN dbb_null_date(length($1), 'ObjcGetYearAndQuarterUsingLocale') ELSE"
                    + " dbb_quarter_of_p(dbb_text_seconds($1, true) + 0 * dbb_locale_rules_of('ObjcGetYearAndQuarterUsingLocale', 2, $2)) END",
                volatility: "STABLE"),

            sql("dbb_half_year_of(double precision, boolean, text, text)", "text", halfYear("$1", "$2", "$3", "$4")),
            twin("dbb_half_year_of", ["double precision", "boolean", "text", "text"], "text"),
            sql(
                "ObjcGetYearAndHalfYearUsingLocale(double precision, text, text, text, text)", "text",
                "CASE WHEN $1 IS NULL THEN dbb_null_date($1, 'ObjcGetYearAndHalfYearUsingLocale') ELSE"
                    + " dbb_half_year_of(\(since1970), dbb_half_year_short($2, $3, $4, $5), $3, $4) END",
                volatility: "STABLE"),
            sql(
                "ObjcGetYearAndHalfYearUsingLocale(text, text, text, text, text)", "text",
                "CASE WHEN $1 IS NULL THEN dbb_null_date(length($1), 'ObjcGetYearAndHalfYearUsingLocale') ELSE"
                    + " dbb_half_year_of_p(dbb_text_seconds($1, true), dbb_half_year_short($2, $3, $4, $5), $3, $4) END",
                volatility: "STABLE"),

            sql("dbb_date_of(double precision)", "text", dateText("$1")),
            twin("dbb_date_of", ["double precision"], "text"),
            sql("dbb_date(double precision)", "text", "dbb_date_of(\(since1970))"),
            sql("dbb_date(text)", "text", "dbb_date_of_p(dbb_text_seconds($1, false))"),
            sql(
                "dbb_unixepoch_of(double precision)", "double precision",
                "CASE WHEN \(sqliteMilliseconds("$1")) >= 148731163200000 AND \(sqliteMilliseconds("$1")) < 464269060800000"
                    + " AND floor(\(sqliteMilliseconds("$1")) + 0.5) < 464269060800000 THEN $1 END"),
            twin("dbb_unixepoch_of", ["double precision"], "double precision"),
            sql("dbb_unixepoch(double precision)", "double precision", "dbb_unixepoch_of(\(since1970))"),
            sql("dbb_unixepoch(text)", "double precision", "dbb_unixepoch_of_p(dbb_text_seconds($1, false))"),
        ] + PostgresDateFormat.functions

    /// SQLite's Julian-day milliseconds of seconds since 1970 `s`, before rounding.
    static func sqliteMilliseconds(_ s: String) -> String { "(\(s) * 1000.0 + 210866760000000.0)" }

    /// `YYYY-MM-DD HH:MM:SS[.SSS]` of seconds since 1970 `s`, rounded to the millisecond as
    /// SQLite's `datetime(s, 'unixepoch')` rounds it.
    static func dateText(_ s: String) -> String {
        let rounded = "(floor(\(sqliteMilliseconds(s)) + 0.5)::bigint - 210866760000000)"
        let days = "floor(\(rounded) / 86400000.0)::int"
        let millisecond = "(\(rounded) - \(days)::bigint * 86400000)"
        let time =
            "lpad((\(millisecond) / 3600000)::text, 2, '0') || ':' || lpad((\(millisecond) / 60000 % 60)::text, 2, '0')"
            + " || ':' || lpad((\(millisecond) / 1000 % 60)::text, 2, '0')"
            + " || CASE WHEN \(millisecond) % 1000 <> 0 THEN '.' || lpad((\(millisecond) % 1000)::text, 3, '0') ELSE '' END"
        return "CASE WHEN \(sqliteMilliseconds(s)) >= 148731163200000 AND \(sqliteMilliseconds(s)) < 464269060800000"
            + " AND floor(\(sqliteMilliseconds(s)) + 0.5) < 464269060800000"
            + " THEN \(dayText(date(days))) || ' ' || \(time) END"
    }
}

extension PostgresLocaleSQL {
    /// Seconds since 1970 of a text date in the forms the SQLite functions read (`yyyy-MM-dd`,
    /// a time after a space or `T`, fractions of a second, `Z` or an offset), `NULL` for any
    /// other text. With `$2` (the functions of a day), an instant kept inside its UTC day, as
    /// the SQLite functions keep it; without (`dbb_date`, `dbb_unixepoch`), as SQLite counts it.
    static let textSeconds = plpgsql(
        "dbb_text_seconds(text, boolean)", "double precision",
        #"""
        DECLARE
          m text[]; y int; mo int; d int; month_length int; seconds double precision; offset_seconds int := 0;
          fraction double precision := 0; scale double precision := 1; midnight double precision;
          day_start double precision; result double precision; shape text;
        BEGIN
          -- The usual shapes without the regular expression, which costs some 80 µs a call
          -- (a weekly report over a year of text dates took 120 ms in it): every digit a 0, the
          -- same captures as the expression's; the checks below are the same for both.
          shape := translate($1, '0123456789', '0000000000');
          IF shape = '0000-00-00' THEN
            m := ARRAY[substr($1, 1, 4), substr($1, 6, 2), substr($1, 9, 2), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL];
          ELSIF shape IN ('0000-00-00 00:00:00', '0000-00-00T00:00:00') THEN
            m := ARRAY[substr($1, 1, 4), substr($1, 6, 2), substr($1, 9, 2), substr($1, 12, 2), substr($1, 15, 2),
                       substr($1, 18, 2), NULL, NULL, NULL, NULL, NULL];
          ELSIF shape IN ('0000-00-00 00:00:00.000', '0000-00-00T00:00:00.000') THEN
            m := ARRAY[substr($1, 1, 4), substr($1, 6, 2), substr($1, 9, 2), substr($1, 12, 2), substr($1, 15, 2),
                       substr($1, 18, 2), substr($1, 21, 3), NULL, NULL, NULL, NULL];
          ELSE
            m := regexp_match($1, '^[ \t\n\v\f\r]*([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[ T]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(?:(Z)|([+-])([0-9]{2})(?::?([0-9]{2}))?)?)?[ \t\n\v\f\r]*$');
          END IF;
          IF m IS NULL THEN RETURN NULL; END IF;
          y := m[1]::int; mo := m[2]::int; d := m[3]::int;
          -- (PL/pgSQL reads an IF's condition up to the first THEN: no CASE in it.)
          month_length := CASE WHEN mo = 2 THEN CASE WHEN (y % 4 = 0 AND y % 100 <> 0) OR y % 400 = 0 THEN 29 ELSE 28 END
                               WHEN mo IN (4, 6, 9, 11) THEN 30 ELSE 31 END;
          IF y < 1 OR mo < 1 OR mo > 12 OR d < 1 OR d > month_length THEN RETURN NULL; END IF;
          seconds := 0;
          IF m[4] IS NOT NULL THEN
            IF m[4]::int >= 24 OR m[5]::int >= 60 THEN RETURN NULL; END IF;
            seconds := m[4]::int * 3600 + m[5]::int * 60;
            IF m[6] IS NOT NULL THEN
              IF m[6]::int >= 60 THEN RETURN NULL; END IF;
              seconds := seconds + m[6]::int;
              IF m[7] IS NOT NULL THEN
                FOR i IN 1..length(m[7]) LOOP
                  IF scale > 1e-9 THEN
                    scale := scale / 10;
                    fraction := fraction + substr(m[7], i, 1)::int * scale;
                  END IF;
                END LOOP;
                seconds := seconds + fraction;
              END IF;
            END IF;
            IF m[9] IS NOT NULL THEN
              IF m[10]::int > 14 OR coalesce(m[11]::int, 0) >= 60 THEN RETURN NULL; END IF;
              offset_seconds := CASE m[9] WHEN '-' THEN -1 ELSE 1 END * (m[10]::int * 3600 + coalesce(m[11]::int, 0) * 60);
            END IF;
          END IF;
          midnight := (make_date(y, mo, d) - date '1970-01-01') * 86400.0;
          IF NOT $2 THEN RETURN midnight + seconds - offset_seconds; END IF;
          day_start := midnight + ((trunc(seconds)::int - offset_seconds + 86400) / 86400 - 1) * 86400.0;
          result := midnight + (seconds - offset_seconds);
          -- Rounding can carry 23:59:59.9999… to the next midnight: 23:59:59.999, as on SQLite.
          IF result >= day_start + 86400 THEN RETURN day_start + 86399.9995; END IF;
          RETURN greatest(result, day_start);
        END
        """#)
}
#endif
