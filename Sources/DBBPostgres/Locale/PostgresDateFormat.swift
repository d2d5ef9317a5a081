#if Postgres
import DBBLocale

/// `dbb_format_date` and `ObjcFormatAnsiDateUsingLocale` in PostgreSQL: TR35 patterns of the
/// fields below, written as `DateFormatter` writes them (Gregorian, UTC) with the locale's
/// digits and names from the rules table.
///
/// A pattern is compiled once per query when it is a constant (`dbb_format_pattern` is
/// `IMMUTABLE`): the planner folds the compiled tokens, the locale's names and its week rules
/// into the query, and each row runs one PL/pgSQL loop over the tokens.
enum PostgresDateFormat {
    /// A field the functions write, by its letters, and its compiled token: a letter and a
    /// width for a number (`y4`), or `N` with the 1-based index before the first name and
    /// what picks the name (`N23:m`: month names at 24…35).
    struct Field {
        let letters: String
        let token: String
        /// What the field is: the table's own documentation (errors list the letters).
        let meaning: String
    }

    /// The numeric fields `to_char` writes as `DateFormatter` does (ASCII digits, years 1–9999).
    static let toChar: [String: String] = [
        "y1": "FMYYYY", "y2": "YY", "y4": "YYYY", "M1": "FMMM", "M2": "MM", "L1": "FMMM", "L2": "MM",
        "d1": "FMDD", "d2": "DD", "D1": "FMDDD", "D3": "DDD", "Q1": "Q", "q1": "Q", "H1": "FMHH24", "H2": "HH24",
        "h1": "FMHH12", "h2": "HH12", "m1": "FMMI", "m2": "MI", "s1": "FMSS", "s2": "SS", "S3": "MS",
    ]

    private static func names(_ set: DBBLocaleSymbols.Set, _ by: Character) -> String { "N\(set.offset):\(by)" }

    private static func numbers(_ letter: Character, _ widths: ClosedRange<Int>, _ meaning: String) -> [Field] {
        widths.map { Field(letters: String(repeating: letter, count: $0), token: "\(letter)\($0)", meaning: meaning) }
    }

    private static func named(_ letters: String, _ set: DBBLocaleSymbols.Set, _ by: Character, _ meaning: String)
        -> Field
    {
        Field(letters: letters, token: names(set, by), meaning: meaning)
    }

    /// Every supported field. `DateFormatter` writes a few more (time zones, `B`, `aaaa`…):
    /// such a field in a pattern is an error naming it.
    static let fields: [Field] = {
        var fields: [Field] = []
        fields += ["G", "GG", "GGG"].map { named($0, .era, "a", "era, abbreviated (AD)") }
        fields.append(Field(letters: "GGGG", token: "N\(DBBLocaleSymbols.Set.era.offset + 1):a", meaning: "era, wide"))
        fields += numbers("y", 1...4, "year (yy: its last two digits)")
        fields += numbers("Y", 1...4, "year of the week (YY: its last two digits)")
        fields += numbers("Q", 1...2, "quarter number")
        fields += [
            named("QQQ", .quarterAbbreviated, "q", "quarter, abbreviated"),
            named("QQQQ", .quarterWide, "q", "quarter, wide"),
        ]
        fields += numbers("q", 1...2, "quarter number")
        fields += [
            named("qqq", .standaloneQuarterAbbreviated, "q", "quarter on its own, abbreviated"),
            named("qqqq", .standaloneQuarterWide, "q", "quarter on its own, wide"),
        ]
        fields += numbers("M", 1...2, "month number")
        fields += [
            named("MMM", .monthAbbreviated, "m", "month, abbreviated"), named("MMMM", .monthWide, "m", "month, wide"),
            named("MMMMM", .monthNarrow, "m", "month, narrow"),
        ]
        fields += numbers("L", 1...2, "month number")
        fields += [
            named("LLL", .standaloneMonthAbbreviated, "m", "month on its own, abbreviated"),
            named("LLLL", .standaloneMonthWide, "m", "month on its own, wide"),
            named("LLLLL", .standaloneMonthNarrow, "m", "month on its own, narrow"),
        ]
        fields += numbers("w", 1...2, "week of the year")
        fields += numbers("W", 1...1, "week of the month")
        fields += numbers("d", 1...2, "day of the month")
        fields += numbers("D", 1...3, "day of the year")
        fields += numbers("F", 1...1, "weekday's ordinal in the month")
        fields += ["E", "EE", "EEE"].map { named($0, .weekdayAbbreviated, "w", "weekday, abbreviated") }
        fields += [
            named("EEEE", .weekdayWide, "w", "weekday, wide"), named("EEEEE", .weekdayNarrow, "w", "weekday, narrow"),
        ]
        fields += numbers("e", 1...2, "weekday number in the locale's week (1 is its first day)")
        fields += [
            named("eee", .weekdayAbbreviated, "w", "weekday, abbreviated"),
            named("eeee", .weekdayWide, "w", "weekday, wide"),
            named("eeeee", .weekdayNarrow, "w", "weekday, narrow"),
        ]
        fields += numbers("c", 1...2, "weekday number in the locale's week, one digit")
        fields += [
            named("ccc", .standaloneWeekdayAbbreviated, "w", "weekday on its own, abbreviated"),
            named("cccc", .standaloneWeekdayWide, "w", "weekday on its own, wide"),
            named("ccccc", .standaloneWeekdayNarrow, "w", "weekday on its own, narrow"),
        ]
        fields += ["a", "aa", "aaa"].map { named($0, .dayPeriod, "p", "AM or PM") }
        fields += numbers("h", 1...2, "hour 1–12")
        fields += numbers("H", 1...2, "hour 0–23")
        fields += numbers("K", 1...2, "hour 0–11")
        fields += numbers("k", 1...2, "hour 1–24")
        fields += numbers("m", 1...2, "minute")
        fields += numbers("s", 1...2, "second")
        fields += numbers("S", 1...9, "fraction of the second, cut (not rounded) to the milliseconds")
        return fields
    }()

    /// The supported letters, for messages: `G–GGGG, y–yyyy, …`.
    static let supportedList: String = {
        var runs: [(first: String, last: String)] = []
        for field in fields {
            if let last = runs.last, last.last.first == field.letters.first, field.letters.count == last.last.count + 1
            {
                runs[runs.count - 1].last = field.letters
            } else {
                runs.append((field.letters, field.letters))
            }
        }
        return runs.map { $0.first == $0.last ? $0.first : "\($0.first)–\($0.last)" }.joined(separator: ", ")
    }()

    // MARK: - SQL

    /// `dbb_format_pattern(function, format, locale)`: the tokens of a TR35 pattern, after the
    /// checks the SQLite functions make in their order (a `NULL` format, a `NULL` or unknown
    /// locale); a field outside ``fields`` is an error naming it. Literal text is a token
    /// starting with `'`: quoted text (`''` is a quote; an unclosed quote runs to the end, as
    /// in `DateFormatter`) and every character that is not an ASCII letter.
    static var compile: String {
        let cases = fields.map {
            "WHEN \(PostgresLocaleSQL.literal($0.letters)) THEN \(PostgresLocaleSQL.literal($0.token))"
        }
        return PostgresLocaleSQL.plpgsql(
            "dbb_format_pattern(text, text, text)", "text[]",
            """
            DECLARE tokens text[] := '{}'; literal text := ''; i int := 1; n int; c text; k int; token text;
            BEGIN
              IF $2 IS NULL THEN RAISE EXCEPTION '%: argument 1 (format) is NULL', $1 USING ERRCODE = '22004'; END IF;
              PERFORM dbb_locale_rules_of($1, 3, $3);
              n := length($2);
              WHILE i <= n LOOP
                c := substr($2, i, 1);
                IF c = '''' THEN
                  i := i + 1;
                  IF substr($2, i, 1) = '''' THEN literal := literal || ''''; i := i + 1; CONTINUE; END IF;
                  WHILE i <= n LOOP
                    IF substr($2, i, 1) = '''' THEN
                      IF substr($2, i + 1, 1) <> '''' THEN i := i + 1; EXIT; END IF;
                      i := i + 1;
                    END IF;
                    literal := literal || substr($2, i, 1);
                    i := i + 1;
                  END LOOP;
                ELSIF ascii(c) BETWEEN 65 AND 90 OR ascii(c) BETWEEN 97 AND 122 THEN
                  k := 1;
                  WHILE substr($2, i + k, 1) = c LOOP k := k + 1; END LOOP;
                  token := CASE repeat(c, k) \(cases.joined(separator: " ")) END;
                  IF token IS NULL THEN
                    RAISE EXCEPTION '%: argument 1 (format) % has the field %, which the PostgreSQL functions do not write (they write %)',
                      $1, dbb_quoted($2), dbb_quoted(repeat(c, k)), \(PostgresLocaleSQL.literal(supportedList)) USING ERRCODE = '22023';
                  END IF;
                  IF literal <> '' THEN tokens := tokens || ('''' || literal); literal := ''; END IF;
                  tokens := tokens || token;
                  i := i + k;
                ELSE
                  literal := literal || c;
                  i := i + 1;
                END IF;
              END LOOP;
              IF literal <> '' THEN tokens := tokens || ('''' || literal); END IF;
              RETURN tokens;
            END
            """)
    }

    /// `dbb_format_of(seconds since 1970, tokens, names, rules, function)`: the tokens written for
    /// one instant, `NULL` for an empty result or an instant outside the years 1–9999. The
    /// instant's fields are those of its nearest millisecond (half up), as `DateFormatter` takes them. With a
    /// function name, a `NULL` instant is that function's error (ESLocale's names).
    static var apply: String {
        let digitsOffset = DBBLocaleSymbols.Set.digits.offset
        return PostgresLocaleSQL.plpgsql(
            "dbb_format_of(double precision, text[], text[], int, text)", "text",
            """
            DECLARE
              result text := ''; t text; c text; k int; v int; s text; ms double precision; n int; msd int;
              d date; y int; mo int; dd int; dow int; fw int := $4 / 8; wy int; wk int; anchor date; digits text;
            BEGIN
              IF $1 IS NULL THEN
                IF $5 IS NOT NULL THEN RAISE EXCEPTION '%: argument 2 (date) is NULL', $5 USING ERRCODE = '22004'; END IF;
                RETURN NULL;
              END IF;
              IF NOT (\(PostgresLocaleSQL.inRange("$1"))) THEN RETURN NULL; END IF;
              -- DateFormatter's millisecond: rounded, half up (CFDateFormatter adds half a millisecond).
              ms := floor($1 * 1000 + 0.5);
              n := floor(ms / 86400000);
              msd := (ms - n * 86400000::double precision)::int;
              d := date '1970-01-01' + n;
              y := date_part('year', d); mo := date_part('month', d); dd := date_part('day', d);
              dow := (n % 7 + 11) % 7 + 1;
              IF $3[\(digitsOffset + 1)] <> '0' OR $3[\(digitsOffset + 10)] <> '9' THEN digits := array_to_string($3[\(digitsOffset + 1):\(digitsOffset + 10)], ''); END IF;
              FOREACH t IN ARRAY $2 LOOP
                c := left(t, 1);
                IF c = '''' THEN result := result || substr(t, 2); CONTINUE; END IF;
                IF c = 'N' THEN
                  k := split_part(substr(t, 2), ':', 1)::int;
                  result := result || $3[k + CASE split_part(t, ':', 2)
                    WHEN 'm' THEN mo WHEN 'w' THEN dow WHEN 'q' THEN (mo - 1) / 3 + 1
                    WHEN 'p' THEN CASE WHEN msd < 43200000 THEN 1 ELSE 2 END ELSE 1 END];
                  CONTINUE;
                END IF;
                k := substr(t, 2)::int;
                IF (c = 'Y' OR c = 'w') AND wy IS NULL THEN
                  anchor := date '1970-01-01' + (\(PostgresLocaleSQL.weekStart("n", "$4")) + 7 - $4 % 8);
                  wy := date_part('year', anchor);
                  wk := (date_part('doy', anchor)::int - 1) / 7 + 1;
                END IF;
                IF c = 'S' THEN
                  s := lpad((msd % 1000)::text, 3, '0');
                  s := CASE WHEN k <= 3 THEN left(s, k) ELSE s || repeat('0', k - 3) END;
                ELSE
                  v := CASE c
                    WHEN 'y' THEN y WHEN 'Y' THEN wy WHEN 'M' THEN mo WHEN 'L' THEN mo WHEN 'd' THEN dd
                    WHEN 'Q' THEN (mo - 1) / 3 + 1 WHEN 'q' THEN (mo - 1) / 3 + 1 WHEN 'w' THEN wk
                    WHEN 'W' THEN ((dd + (((dow - fw - dd + 1) % 7 + 7) % 7) - 1) / 7
                                   + CASE WHEN 7 - (((dow - fw - dd + 1) % 7 + 7) % 7) >= $4 % 8 THEN 1 ELSE 0 END)
                    WHEN 'D' THEN d - make_date(y, 1, 1) + 1 WHEN 'F' THEN (dd - 1) / 7 + 1
                    WHEN 'e' THEN (dow - fw + 7) % 7 + 1 WHEN 'c' THEN (dow - fw + 7) % 7 + 1
                    WHEN 'h' THEN (msd / 3600000 + 11) % 12 + 1 WHEN 'H' THEN msd / 3600000
                    WHEN 'K' THEN msd / 3600000 % 12 WHEN 'k' THEN (msd / 3600000 + 23) % 24 + 1
                    WHEN 'm' THEN msd / 60000 % 60 WHEN 's' THEN msd / 1000 % 60 END;
                  IF k = 2 AND (c = 'y' OR c = 'Y') THEN v := v % 100; END IF;
                  s := v::text;
                  IF length(s) < k AND c <> 'c' THEN s := lpad(s, k, '0'); END IF;
                END IF;
                IF digits IS NOT NULL THEN s := translate(s, '0123456789', digits); END IF;
                result := result || s;
              END LOOP;
              RETURN nullif(result, '');
            END
            """)
    }

    /// How many named fields a pattern may have for ``plan``.
    static let plannedNames = 3

    /// `dbb_format_plan(tokens, names)`: the tokens as `to_char` templates around at most
    /// ``plannedNames`` named fields — `{template, name, template, name, template, name,
    /// template}`, a missing name `NULL`, a missing template empty — when every numeric field is
    /// one `to_char` writes the same way and the locale's digits are ASCII; otherwise `NULL`.
    /// Literal text goes in double quotes (text holding `"` or `\` does not).
    static var plan: String {
        let cases = toChar.sorted { $0.key < $1.key }
            .map { "WHEN \(PostgresLocaleSQL.literal($0.key)) THEN \(PostgresLocaleSQL.literal($0.value))" }
        let digits = DBBLocaleSymbols.Set.digits.offset
        return PostgresLocaleSQL.plpgsql(
            "dbb_format_plan(text[], text[])", "text[]",
            """
            DECLARE plan text[] := '{}'; template text := ''; t text; piece text; after_field boolean := false;
            BEGIN
              IF array_to_string($2[\(digits + 1):\(digits + 10)], '') <> '0123456789' THEN RETURN NULL; END IF;
              FOREACH t IN ARRAY $1 LOOP
                IF left(t, 1) = '''' THEN
                  IF position('"' IN t) > 0 OR position('\\' IN t) > 0 THEN RETURN NULL; END IF;
                  template := template || '"' || substr(t, 2) || '"';
                ELSIF left(t, 1) = 'N' THEN
                  IF cardinality(plan) >= \(plannedNames * 2) THEN RETURN NULL; END IF;
                  plan := plan || ARRAY[template, t];
                  template := '';
                ELSE
                  piece := CASE t \(cases.joined(separator: " ")) END;
                  IF piece IS NULL THEN RETURN NULL; END IF;
                  -- "" between two fields: to_char would read d then DDD (FMDDDDD) as DDD then DD.
                  template := template || CASE WHEN after_field THEN '""' ELSE '' END || piece;
                  after_field := true;
                  CONTINUE;
                END IF;
                after_field := false;
              END LOOP;
              plan := plan || template;
              WHILE cardinality(plan) < \(plannedNames * 2 + 1) LOOP plan := plan || ARRAY[NULL, '']; END LOOP;
              RETURN plan;
            END
            """)
    }

    /// The text of a planned pattern at the timestamp `ts` (see ``plan``): `to_char` pieces and
    /// names looked up by month, weekday, quarter or half of the day. With a constant plan the
    /// planner keeps, of each piece, the one expression it needs.
    static func planned(_ plan: String, _ names: String, _ ts: String) -> String {
        var pieces: [String] = []
        for index in 1...(plannedNames * 2 + 1) {
            let element = "(\(plan))[\(index)]"
            if index % 2 == 1 {
                pieces.append("CASE WHEN \(element) = '' THEN '' ELSE to_char(\(ts), \(element)) END")
            } else {
                let value =
                    "CASE split_part(\(element), ':', 2) WHEN 'm' THEN date_part('month', \(ts))::int"
                    + " WHEN 'w' THEN date_part('dow', \(ts))::int + 1 WHEN 'q' THEN date_part('quarter', \(ts))::int"
                    + " WHEN 'p' THEN CASE WHEN date_part('hour', \(ts)) < 12 THEN 1 ELSE 2 END ELSE 1 END"
                pieces.append("coalesce((\(names))[split_part(substr(\(element), 2), ':', 1)::int + \(value)], '')")
            }
        }
        // Only the pieces the pattern has: a name missing from the plan ends it.
        let arms = (0..<plannedNames).map { count in
            "WHEN (\(plan))[\(count * 2 + 2)] IS NULL THEN " + pieces[0...(count * 2)].joined(separator: " || ")
        }
        return "CASE " + arms.joined(separator: " ") + " ELSE " + pieces.joined(separator: " || ") + " END"
    }

    /// The names and digits of a locale known to the rules table.
    static let namesOf = PostgresLocaleSQL.sql(
        "dbb_locale_names_of(text)", "text[]",
        "names FROM \(PostgresLocaleSQL.rulesTable) WHERE identifier = dbb_locale_key($1)")

    /// `dbb_format_seconds(seconds since 1970, format, locale, function, refusing)`: the
    /// functions' body. A pattern ``plan`` takes is `to_char` calls and name lookups per row;
    /// any other runs ``apply``. With constant format and locale the planner keeps one branch.
    static var seconds: String {
        let tokens = "dbb_format_pattern($4, $2, $3)"
        let plan = "dbb_format_plan(\(tokens), dbb_locale_names_of($3))"
        // The middle of the nearest millisecond: far from 1970, milliseconds / 1000 is off by up
        // to 30 µs either way, and a timestamp a little short of a whole millisecond writes the
        // one before (MS truncates). From its middle, no error crosses a millisecond.
        let instant = "(to_timestamp((floor($1 * 1000 + 0.5) + 0.5) / 1000) AT TIME ZONE 'UTC')"
        return PostgresLocaleSQL.sql(
            "dbb_format_seconds(double precision, text, text, text, text)", "text",
            "CASE WHEN \(plan) IS NOT NULL AND \(PostgresLocaleSQL.inRange("$1"))"
                + " THEN nullif(\(planned(plan, "dbb_locale_names_of($3)", instant)), '')"
                + " ELSE dbb_format_of($1, \(tokens), dbb_locale_names_of($3), dbb_locale_rules_of($4, 3, $3), $5) END",
            volatility: "STABLE")
    }

    /// `dbb_format_date(format, date, locale)` and `ObjcFormatAnsiDateUsingLocale`, for a
    /// numeric and a text date.
    static var functions: [String] {
        ["dbb_format_date", "ObjcFormatAnsiDateUsingLocale"].flatMap { name -> [String] in
            let refusesNull = name.hasPrefix("dbb_") ? "NULL::text" : PostgresLocaleSQL.literal(name)
            let rest =
                "dbb_format_pattern('\(name)', $1, $3), dbb_locale_names_of($3), dbb_locale_rules_of('\(name)', 3, $3)"
            // ESLocale's name refuses a NULL date, after a NULL format and before the locale, as on SQLite.
            func refusing(_ body: String, date: String) -> String {
                name.hasPrefix("dbb_")
                    ? body : "CASE WHEN $2 IS NULL THEN dbb_format_null($1, '\(name)', \(date)) ELSE \(body) END"
            }
            return [
                PostgresLocaleSQL.sql(
                    "\(name)(text, double precision, text)", "text",
                    refusing("dbb_format_seconds($2 + 978307200, $1, $3, '\(name)', \(refusesNull))", date: "$2"),
                    volatility: "STABLE"),
                PostgresLocaleSQL.sql(
                    "\(name)(text, text, text)", "text",
                    refusing(
                        "dbb_format_of(dbb_text_seconds($2, true), \(rest), CASE WHEN $2 IS NULL THEN \(refusesNull) END)",
                        date: "length($2)"),
                    volatility: "STABLE"),
            ]
        }
    }
}
#endif
