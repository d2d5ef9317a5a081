/// What a statement does beyond its transaction, read from its tokens: the state it leaves in
/// the session (which a transaction pooler would hand to another client), whether it can run
/// inside a transaction block at all, and whether it may commit part of its work itself. A
/// reading of the statement's own text: what a function it calls does inside is not seen.
extension PlaceholderSQL.Statement {
    /// The session advisory lock functions that take a lock (the `_xact_` ones end with the
    /// transaction; the unlock functions only remove state).
    static let sessionLockFunctions: Set = [
        "PG_ADVISORY_LOCK", "PG_ADVISORY_LOCK_SHARED", "PG_TRY_ADVISORY_LOCK", "PG_TRY_ADVISORY_LOCK_SHARED",
    ]

    /// The words a statement `EXPLAIN` shows can begin with.
    private static let explainable: Set = [
        "SELECT", "WITH", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "EXECUTE", "DECLARE",
    ]

    /// What of a statement of these tokens outlasts its transaction in the session, or `nil`:
    /// `SET` (not `SET LOCAL`, `SET TRANSACTION`, `SET CONSTRAINTS`), `RESET`, `LISTEN`, `LOAD`,
    /// `PREPARE`/`EXECUTE` of a prepared statement, `DECLARE … WITH HOLD`, `UPDATE pg_settings`,
    /// `setseed`, a temporary table,
    /// view, sequence or function (`CREATE TEMP …` unless a table's `ON COMMIT DROP`, `SELECT …
    /// INTO TEMP`, anything made in or pointed at `pg_temp` — but a routine's own `SET
    /// search_path = …, pg_temp`), a session advisory lock, `set_config` unless its third
    /// argument is a literal true — and the same of the statement `EXPLAIN ANALYZE` runs.
    static func sessionState(_ tokens: [SQLToken]) -> String? {
        let tokens = tokens.filter { $0.kind != .space }
        let words = tokens.filter { $0.kind == .word }.map { $0.text.uppercased() }
        let names = names(tokens)
        if words.first == "EXPLAIN" {
            // Only EXPLAIN ANALYZE runs the statement it shows.
            guard let start = tokens.indices.dropFirst().first(where: { explainable.contains(word(tokens[$0])) }),
                analyzes(tokens[..<start])
            else { return nil }
            return sessionState(Array(tokens[start...]))
        }
        if let lock = names.first(where: sessionLockFunctions.contains) { return lock.lowercased() }
        if names.contains("SETSEED") { return "setseed" }
        // UPDATE pg_settings is set_config(…, false) by another name.
        if names.contains("PG_SETTINGS") && words.contains("UPDATE") { return "UPDATE pg_settings" }
        if let setting = sessionSetting(tokens) { return setting }
        if names.contains("PG_TEMP"), pointsAtTemporarySchema(tokens, words) { return "\(words[0]) … pg_temp" }
        let second = words.count > 1 ? words[1] : ""
        switch words.first {
        case "SET":
            return ["LOCAL", "TRANSACTION", "CONSTRAINTS"].contains(second) ? nil : "SET"
        case "RESET", "LISTEN", "LOAD", "EXECUTE":
            return words[0]
        case "PREPARE":
            return second == "TRANSACTION" ? nil : "PREPARE"
        case "DECLARE" where adjacent(["WITH", "HOLD"], in: outerWords(tokens, before: "FOR")):
            return "DECLARE … WITH HOLD"
        case "CREATE" where createsTemporary(words) && !dropsOnCommit(tokens):
            return "CREATE TEMPORARY"
        case "SELECT", "WITH":
            return adjacent(["INTO", "TEMP"], in: words) || adjacent(["INTO", "TEMPORARY"], in: words)
                ? "SELECT … INTO TEMPORARY" : nil
        default:
            return nil
        }
    }

    /// Whether `EXPLAIN`'s options run the statement: `ANALYZE` (or `ANALYSE`), not followed by
    /// `false`, `off` or `0` (`EXPLAIN (ANALYZE false) …`).
    private static func analyzes(_ options: ArraySlice<SQLToken>) -> Bool {
        options.indices.contains { index in
            guard options[index].isKeyword("ANALYZE") || options[index].isKeyword("ANALYSE") else { return false }
            let next = index + 1 < options.endIndex ? options[index + 1].text.lowercased() : ""
            return !["false", "off", "0", "'false'", "'off'", "'0'"].contains(next)
        }
    }

    /// The upper-cased text of a bare word, or "" for another token.
    private static func word(_ token: SQLToken) -> String { token.kind == .word ? token.text.uppercased() : "" }

    /// Whether `pg_temp` in a statement makes or points at the session's temporary schema —
    /// not when it is only in a routine's `SET search_path = …, pg_temp` clause (`CREATE
    /// FUNCTION … SET …`, `ALTER PROCEDURE … SET …`), which applies while the routine runs.
    private static func pointsAtTemporarySchema(_ tokens: [SQLToken], _ words: [String]) -> Bool {
        var rest = words.dropFirst()
        if rest.starts(with: ["OR", "REPLACE"]) { rest = rest.dropFirst(2) }
        let routine =
            ["CREATE", "ALTER"].contains(words.first ?? "") && ["FUNCTION", "PROCEDURE"].contains(rest.first ?? "")
        guard routine else { return true }
        // The routine's own name in pg_temp, or moved there (`SET SCHEMA pg_temp`).
        for (index, token) in tokens.enumerated() where token.identifier?.uppercased() == "PG_TEMP" {
            let before = index > 0 ? word(tokens[index - 1]) : ""
            if before == "FUNCTION" || before == "PROCEDURE" || before == "SCHEMA" { return true }
        }
        return false
    }

    /// A `set_config(…)` call whose setting outlasts the transaction — its third argument not a
    /// literal true — or that puts `pg_temp` on the search path, named; or `nil`.
    private static func sessionSetting(_ tokens: [SQLToken]) -> String? {
        for (index, name) in decodedNames(tokens) where name.uppercased() == "SET_CONFIG" {
            // After `U&"…"`, maybe `UESCAPE '!'`.
            let open = index + 1 < tokens.count && tokens[index + 1].isKeyword("UESCAPE") ? index + 3 : index + 1
            let arguments = callArguments(tokens, openingAt: open)
            guard arguments.count == 3 else { return "set_config" }
            let literal = { (written: [SQLToken]) -> String? in
                // A literal alone, in parentheses — `(true)` — or cast: `true::boolean`.
                var inner = written[...]
                while inner.count > 2, inner.first?.text == "(", inner.last?.text == ")" {
                    inner = inner.dropFirst().dropLast()
                }
                let argument = Array(inner)
                let cast = ["::bool", "::boolean"].contains(argument.dropFirst().map(\.text).joined().lowercased())
                guard argument.count == 1 || cast, argument[0].kind == .quoted || argument[0].kind == .word else {
                    return nil
                }
                let text = argument[0].text
                return (text.first == "'" ? String(text.dropFirst().dropLast()) : String(text)).lowercased()
            }
            let local = literal(arguments[2]).map { ["true", "t", "on", "yes", "y", "1"].contains($0) } ?? false
            guard local else { return "set_config(…, false)" }
            if literal(arguments[0]) == "search_path", literal(arguments[1])?.contains("pg_temp") != false {
                return "set_config('search_path', … pg_temp …)"
            }
        }
        return nil
    }

    /// The arguments of the call whose `(` is at `open` (each its tokens), or none when no `(` is there.
    private static func callArguments(_ tokens: [SQLToken], openingAt open: Int) -> [[SQLToken]] {
        guard open < tokens.count, tokens[open].text == "(" else { return [] }
        var arguments: [[SQLToken]] = [[]]
        var depth = 0
        for token in tokens[(open + 1)...] {
            if token.kind == .symbol && token.text == "(" { depth += 1 }
            if token.kind == .symbol && token.text == ")" {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0 && token.kind == .symbol && token.text == "," {
                arguments.append([])
            } else {
                arguments[arguments.count - 1].append(token)
            }
        }
        return arguments
    }

    /// The upper-cased bare words outside parentheses, up to the first such `stop` word.
    private static func outerWords(_ tokens: [SQLToken], before stop: String) -> [String] {
        var words: [String] = []
        var depth = 0
        for token in tokens {
            if token.kind == .symbol && token.text == "(" { depth += 1 }
            if token.kind == .symbol && token.text == ")" { depth -= 1 }
            guard depth == 0, token.kind == .word else { continue }
            let word = token.text.uppercased()
            if word == stop { break }
            words.append(word)
        }
        return words
    }

    /// Whether `sequence` occurs in `words`, its words next to each other.
    private static func adjacent(_ sequence: [String], in words: [String]) -> Bool {
        words.count >= sequence.count
            && (0...(words.count - sequence.count)).contains {
                words[$0..<($0 + sequence.count)].elementsEqual(sequence)
            }
    }

    /// Whether `CREATE [OR REPLACE] [GLOBAL | LOCAL] TEMP|TEMPORARY …` is what the words begin with.
    private static func createsTemporary(_ words: [String]) -> Bool {
        var rest = words.dropFirst()
        if rest.starts(with: ["OR", "REPLACE"]) { rest = rest.dropFirst(2) }
        if rest.first == "GLOBAL" || rest.first == "LOCAL" { rest = rest.dropFirst() }
        return rest.first == "TEMP" || rest.first == "TEMPORARY"
    }

    /// Whether a `CREATE TEMP TABLE` has the clause `ON COMMIT DROP`: outside its parentheses,
    /// before the `AS` of its query.
    private static func dropsOnCommit(_ tokens: [SQLToken]) -> Bool {
        let words = outerWords(tokens, before: "AS")
        return words.contains("TABLE") && adjacent(["ON", "COMMIT", "DROP"], in: words)
    }

    /// Whether a statement of these tokens may commit part of its work before it ends, which a
    /// failure then does not undo: `CALL` (a procedure may `COMMIT`), and a `DO` block whose
    /// body says `COMMIT` or `CALL` — when run outside a transaction block.
    @_spi(DBBBackend) public static func mayCommitInside(_ tokens: [SQLToken]) -> Bool {
        let tokens = tokens.filter { $0.kind != .space }
        switch tokens.first.map(word) {
        case "CALL":
            return true
        case "DO":
            return tokens.dropFirst().contains { token in
                token.kind == .quoted
                    && token.text.uppercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }
                        .contains { $0 == "COMMIT" || $0 == "CALL" }
            }
        default:
            return false
        }
    }

    /// What a failure of a statement of these tokens leaves behind, which its rollback does not
    /// undo, as words for its error — or `nil` when nothing stays:
    /// - `CALL` or a `DO` block that commits (``mayCommitInside(_:)``): what it committed;
    /// - `CREATE INDEX CONCURRENTLY`: the index, marked invalid;
    /// - `REINDEX CONCURRENTLY`: new indexes marked invalid (named `…_ccnew`);
    /// - `DROP INDEX CONCURRENTLY`: the index, marked invalid;
    /// - `ALTER TABLE … DETACH PARTITION … CONCURRENTLY`: the partition, pending detach;
    /// - any other `CONCURRENTLY` statement: work half done.
    static func whatFailureLeaves(_ tokens: [SQLToken]) -> String? {
        if mayCommitInside(tokens) {
            return "a procedure or a DO block that commits, run outside a transaction, keeps what it may have "
                + "committed before it failed: look at what it wrote before running it again"
        }
        let words = tokens.filter { $0.kind == .word }.map { $0.text.uppercased() }
        guard words.contains("CONCURRENTLY") else { return nil }
        switch words.first {
        case "CREATE" where words.contains("INDEX"):
            return "a failed CREATE INDEX CONCURRENTLY leaves its index behind, marked invalid (pg_index.indisvalid): "
                + "DROP INDEX it before creating it again — CREATE INDEX IF NOT EXISTS would find it and do nothing"
        case "REINDEX":
            return "a failed REINDEX CONCURRENTLY leaves new indexes behind, marked invalid and named …_ccnew: "
                + "drop them before reindexing again"
        case "DROP" where words.contains("INDEX"):
            return "a failed DROP INDEX CONCURRENTLY may leave the index behind, marked invalid (pg_index.indisvalid): "
                + "drop it again"
        case "REFRESH":
            return nil  // one transaction: a failure undoes it
        case "ALTER" where words.contains("DETACH"):
            return "a failed DETACH PARTITION … CONCURRENTLY leaves the partition pending detach: finish it with "
                + "ALTER TABLE … DETACH PARTITION … FINALIZE"
        default:
            return "a CONCURRENTLY statement runs in several transactions, and a failed one may leave its work half "
                + "done: look before running it again"
        }
    }

    /// Whether a statement of these words cannot run inside a transaction block: `VACUUM`,
    /// anything `CONCURRENTLY`, `CREATE`/`DROP DATABASE`, `TABLESPACE` or `SUBSCRIPTION`,
    /// `ALTER SYSTEM`, `REINDEX SYSTEM`/`DATABASE`, `CLUSTER` of every table, `DISCARD ALL`.
    @_spi(DBBBackend) public static func runsOnlyOutsideTransactions(_ words: [String]) -> Bool {
        if words.contains("CONCURRENTLY") { return true }
        let second = words.count > 1 ? words[1] : ""
        switch words.first {
        case "VACUUM": return true
        case "CREATE", "DROP": return ["DATABASE", "TABLESPACE", "SUBSCRIPTION"].contains(second)
        case "ALTER": return second == "SYSTEM"
        case "REINDEX": return words.contains("SYSTEM") || words.contains("DATABASE")
        case "CLUSTER": return words.dropFirst().allSatisfy { $0 == "VERBOSE" }
        case "DISCARD": return second == "ALL"
        default: return false
        }
    }

    /// The bare and quoted identifiers of `tokens`, upper-cased; a Unicode-escaped one
    /// (`U&"pg\005fadvisory\005flock"`, `U&"pg!005ftemp" UESCAPE '!'`) decoded.
    static func names(_ tokens: [SQLToken]) -> [String] {
        decodedNames(tokens.filter { $0.kind != .space }).map { $0.name.uppercased() }
    }

    /// The bare and quoted identifiers of `tokens` (spaces left out), each with its index, a
    /// Unicode-escaped one decoded.
    private static func decodedNames(_ tokens: [SQLToken]) -> [(index: Int, name: String)] {
        tokens.indices.compactMap { index in
            let token = tokens[index]
            guard var name = token.identifier else { return nil }
            if token.kind == .quoted, index >= 2, tokens[index - 2].isKeyword("U"), tokens[index - 1].text == "&" {
                var escape: Character = "\\"
                if index + 2 < tokens.count, tokens[index + 1].isKeyword("UESCAPE"), tokens[index + 2].text.count == 3 {
                    escape = tokens[index + 2].text.dropFirst().first!
                }
                name = unicodeUnescaped(name, escape: escape)
            }
            return (index, name)
        }
    }

    /// `name` with `\XXXX` and `\+XXXXXX` escapes (`escape` in place of `\`) read as the
    /// characters they stand for; a doubled `escape` as one.
    private static func unicodeUnescaped(_ name: String, escape: Character) -> String {
        var result = ""
        var rest = Substring(name)
        while let mark = rest.firstIndex(of: escape) {
            result += rest[..<mark]
            rest = rest[rest.index(after: mark)...]
            if rest.first == escape {
                result.append(escape)
                rest = rest.dropFirst()
                continue
            }
            let long = rest.first == "+"
            let digits = (long ? rest.dropFirst() : rest).prefix(long ? 6 : 4)
            if let value = UInt32(digits, radix: 16), digits.count == (long ? 6 : 4), let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
                rest = rest.dropFirst(digits.count + (long ? 1 : 0))
            } else {
                result.append(escape)
            }
        }
        return result + rest
    }
}
