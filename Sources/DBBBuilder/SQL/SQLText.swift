import DBBCore
import DBBSQLite

/// SQL text that reads the same in every dialect: identifiers quoted whatever they are, ids
/// lists as JSON arrays, and the literals every engine reads alike. What differs between
/// engines is asked of the ``DBBDialect``.
@_spi(DBBBackend)
public enum SQLText {
    /// The argument of ``DBBDialect/inIDList(_:)``: the ids as a JSON array (every dialect reads it).
    public static func idList(_ ids: some Sequence<Int64>) -> DBBValue {
        // Digits written straight into one byte buffer: a string per id, then joining them,
        // cost as much as the query reading them.
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(ids.underestimatedCount * 8 + 2)
        var digits = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        for id in ids {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            if id < 0 { bytes.append(UInt8(ascii: "-")) }
            var rest = id.magnitude
            withUnsafeMutableBytes(of: &digits) { digits in
                var count = 0
                repeat {
                    digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[index]) }
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// `name` double-quoted, whatever it is: for names written into the application's
    /// conditions, where a bare word could be read as a keyword.
    public static func quoteAlways(_ name: String) -> String {
        SQLQuoting.identifier(name)
    }

    public static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }

    /// `value` as an SQL literal for a `DEFAULT` clause, or `nil` for `NULL` and `NaN`: a
    /// signed number or a quoted literal, never an expression in parentheses (which `ADD
    /// COLUMN` refuses). Reals are written so SQLite reads back the same double (`9e999` for
    /// infinity).
    public static func literal(_ value: DBBValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real) where real.isNaN: nil
        case .real(let real) where real.isInfinite: real < 0 ? "-9e999" : "9e999"
        case .real(let real): "\(real)"
        // SQL text cannot carry a NUL (SQLite ends a token there; PostgreSQL refuses it).
        case .text(let text) where text.utf8.contains(0): nil
        case .text(let text): SQLQuoting.literal(text)
        case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

}
