/// What a statement does beyond its transaction, read from its words and names: the state it
/// leaves in the session (which a transaction pooler would hand to another client), and
/// whether it can run inside a transaction block at all. A reading of the statement's own text:
/// what a function or a `DO` block it calls does inside is not seen.
extension PlaceholderSQL.Statement {
    /// The session advisory lock functions that take a lock (the `_xact_` ones end with the
    /// transaction; the unlock functions only remove state).
    static let sessionLockFunctions: Set = [
        "PG_ADVISORY_LOCK", "PG_ADVISORY_LOCK_SHARED", "PG_TRY_ADVISORY_LOCK", "PG_TRY_ADVISORY_LOCK_SHARED",
    ]

    /// What of a statement with these words (upper-cased bare words) and names (its bare and
    /// quoted identifiers, upper-cased) outlasts its transaction in the session, or `nil`:
    /// `SET` (not `SET LOCAL`, `SET TRANSACTION`, `SET CONSTRAINTS`), `RESET`, `LISTEN`, `LOAD`,
    /// `PREPARE`/`EXECUTE` of a prepared statement, `DECLARE … WITH HOLD`, a temporary table,
    /// view, sequence or function (`CREATE TEMP …` unless `ON COMMIT DROP`, `SELECT … INTO
    /// TEMP`, anything made in or pointed at `pg_temp`), a session advisory lock.
    static func sessionState(_ words: [String], names: [String]) -> String? {
        let second = words.count > 1 ? words[1] : ""
        if let lock = names.first(where: sessionLockFunctions.contains) { return lock.lowercased() }
        switch words.first {
        case "SET" where names.contains("PG_TEMP"):
            return "SET … pg_temp"
        case "SET":
            return ["LOCAL", "TRANSACTION", "CONSTRAINTS"].contains(second) ? nil : "SET"
        case "RESET", "LISTEN", "LOAD", "EXECUTE":
            return words[0]
        case "PREPARE":
            return second == "TRANSACTION" ? nil : "PREPARE"
        case "DECLARE" where words.contains("HOLD"):
            return "DECLARE … WITH HOLD"
        case "CREATE" where names.contains("PG_TEMP"):
            return "CREATE … pg_temp"
        case "CREATE" where createsTemporary(words) && !dropsOnCommit(words):
            return "CREATE TEMPORARY"
        case "SELECT", "WITH":
            let into = zip(words, words.dropFirst()).contains {
                $0 == "INTO" && ($1 == "TEMP" || $1 == "TEMPORARY")
            }
            return into ? "SELECT … INTO TEMPORARY" : nil
        default:
            return nil
        }
    }

    /// Whether `CREATE [OR REPLACE] [GLOBAL | LOCAL] TEMP|TEMPORARY …` is what the words begin with.
    private static func createsTemporary(_ words: [String]) -> Bool {
        var rest = words.dropFirst()
        if rest.starts(with: ["OR", "REPLACE"]) { rest = rest.dropFirst(2) }
        if rest.first == "GLOBAL" || rest.first == "LOCAL" { rest = rest.dropFirst() }
        return rest.first == "TEMP" || rest.first == "TEMPORARY"
    }

    /// Whether the words hold `ON COMMIT DROP`.
    private static func dropsOnCommit(_ words: [String]) -> Bool {
        zip(words, zip(words.dropFirst(), words.dropFirst(2))).contains {
            $0 == "ON" && $1.0 == "COMMIT" && $1.1 == "DROP"
        }
    }

    /// Whether a statement of these words cannot run inside a transaction block: `VACUUM`,
    /// anything `CONCURRENTLY`, `CREATE`/`DROP DATABASE`, `TABLESPACE` or `SUBSCRIPTION`,
    /// `ALTER SYSTEM`, `REINDEX SYSTEM`/`DATABASE`, `CLUSTER` of every table, `DISCARD ALL`.
    static func runsOnlyOutsideTransactions(_ words: [String]) -> Bool {
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
    /// (`U&"pg\005fadvisory\005flock"`) decoded.
    static func names(_ tokens: [SQLToken]) -> [String] {
        var names: [String] = []
        var previous: [SQLToken] = []
        for token in tokens where token.kind != .space {
            defer { previous = Array((previous + [token]).suffix(2)) }
            guard var name = token.identifier else { continue }
            if token.kind == .quoted, previous.count == 2, previous[0].isKeyword("U"), previous[1].text == "&" {
                name = unicodeUnescaped(name)
            }
            names.append(name.uppercased())
        }
        return names
    }

    /// `name` with `\XXXX` and `\+XXXXXX` escapes read as the characters they stand for.
    private static func unicodeUnescaped(_ name: String) -> String {
        var result = ""
        var rest = Substring(name)
        while let slash = rest.firstIndex(of: "\\") {
            result += rest[..<slash]
            rest = rest[rest.index(after: slash)...]
            let long = rest.first == "+"
            let digits = (long ? rest.dropFirst() : rest).prefix(long ? 6 : 4)
            if let value = UInt32(digits, radix: 16), digits.count == (long ? 6 : 4), let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
                rest = rest.dropFirst(digits.count + (long ? 1 : 0))
            } else {
                result += "\\"
            }
        }
        return result + rest
    }
}
