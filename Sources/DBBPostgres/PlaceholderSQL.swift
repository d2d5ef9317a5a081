import Synchronization

/// The library's SQL and conditions are written with SQLite's `?` placeholders; PostgreSQL
/// numbers them. This rewrites each `?` outside string literals, quoted identifiers and
/// comments as `$1`, `$2`, … in order.
enum PlaceholderSQL {
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var chars = sql.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return chars.next()
        }
        while let scalar = next() {
            switch scalar {
            case "'", "\"":
                // A literal or quoted identifier, its doubled quotes included.
                result.unicodeScalars.append(scalar)
                while let inner = next() {
                    result.unicodeScalars.append(inner)
                    if inner == scalar { break }
                }
            case "-":
                result.unicodeScalars.append(scalar)
                guard let following = next() else { break }
                if following == "-" {
                    result.unicodeScalars.append(following)
                    while let inner = next() {
                        result.unicodeScalars.append(inner)
                        if inner == "\n" { break }
                    }
                } else {
                    pending = following
                }
            case "/":
                result.unicodeScalars.append(scalar)
                guard let following = next() else { break }
                if following == "*" {
                    result.unicodeScalars.append(following)
                    var previous: Unicode.Scalar = " "
                    while let inner = next() {
                        result.unicodeScalars.append(inner)
                        if previous == "*" && inner == "/" { break }
                        previous = inner
                    }
                } else {
                    pending = following
                }
            case "?":
                number += 1
                result += "$\(number)"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// The numbered text of each SQL text a manager has run, shared by its connections: a lease
/// gets a new ``PostgresBackend``, and the library's statements are the same few texts.
final class NumberedSQLCache: Sendable {
    private let texts = Mutex<[String: String]>([:])

    func numbered(_ sql: String) -> String {
        if let text = texts.withLock({ $0[sql] }) { return text }
        let text = PlaceholderSQL.numbered(sql)
        texts.withLock { $0[sql] = text }
        return text
    }
}
