#if Postgres
@_spi(DBBBackend) import DBBBuilder
import Foundation
import NIOCore
import PostgresNIO

extension PostgresBindings {
    /// Appends `value` with the PostgreSQL type of its kind: `bigint`, `double precision`,
    /// `text`, `bytea`, or an untyped `NULL`.
    mutating func append(dbbValue value: DBBValue) {
        switch value {
        case .null: appendNull()
        case .integer(let integer): append(integer)
        case .real(let real): append(real)
        case .text(let text): append(text)
        case .blob(let data): append(ByteBuffer(bytes: data))
        }
    }
}

extension DBBValue {
    /// The value of a result cell: integers (booleans as 1 and 0, OIDs), doubles (numerics as
    /// an integer when written without fraction digits, else a double), text (text types, JSON,
    /// enums and other types the server sends as text), bytes, dates and timestamps as seconds
    /// since 2001 (as table objects store dates), times of day as `HH:MM:SS[.ffffff]`, UUIDs as
    /// text in lower case.
    /// - Throws: `DBBError.Kind.invalidValue` naming the column and its type for any other
    ///   type (arrays, `inet`, `money`, geometric and bit types…), which would otherwise read as
    ///   the bytes of its binary form: cast it in the query (`x::text`).
    init(cell: PostgresCell) throws {
        guard let bytes = cell.bytes else {
            self = .null
            return
        }
        if cell.format == .binary, let number = Self.number(bytes, type: cell.dataType.rawValue) {
            self = number
            return
        }
        do {
            self = try Self.decoded(cell)
        } catch let error as DBBError {
            throw error
        } catch {
            throw DBBError(
                backend: .invalidValue,
                "column \(cell.columnName) (PostgreSQL type \(cell.dataType)) could not be read: \(error)")
        }
    }

    /// The value of a binary integer or floating-point cell (the columns a table object most
    /// often reads), read straight from its bytes: `nil` for any other type or length.
    @inline(__always)
    private static func number(_ bytes: ByteBuffer, type: UInt32) -> DBBValue? {
        let at = bytes.readerIndex
        switch (type, bytes.readableBytes) {
        case (20, 8): return bytes.getInteger(at: at, as: Int64.self).map { .integer($0) }  // int8
        case (23, 4): return bytes.getInteger(at: at, as: Int32.self).map { .integer(Int64($0)) }  // int4
        case (21, 2): return bytes.getInteger(at: at, as: Int16.self).map { .integer(Int64($0)) }  // int2
        case (701, 8): return bytes.getInteger(at: at, as: UInt64.self).map { .real(Double(bitPattern: $0)) }  // float8
        case (700, 4):  // float4
            return bytes.getInteger(at: at, as: UInt32.self).map { .real(Double(Float(bitPattern: $0))) }
        default: return nil
        }
    }

    /// The elements of a one-dimensional array in PostgreSQL's binary form (a `NULL` or empty
    /// array has none), each read as a cell of the element type is.
    /// - Throws: `DBBError.Kind.invalidValue` for an array of more dimensions, or one cut short.
    static func elements(ofArray bytes: ByteBuffer?, column: Int) throws -> [DBBValue] {
        guard var buffer = bytes else { return [] }
        func failure(_ why: String) -> DBBError {
            DBBError(backend: .invalidValue, "the array in column \(column) could not be read: \(why)")
        }
        guard let dimensions = buffer.readInteger(as: Int32.self), buffer.readInteger(as: Int32.self) != nil,
            let element = buffer.readInteger(as: UInt32.self)
        else { throw failure("its header is cut short") }
        guard dimensions > 0 else { return [] }
        guard dimensions == 1 else { throw failure("it has \(dimensions) dimensions") }
        guard let count = buffer.readInteger(as: Int32.self), count >= 0, buffer.readInteger(as: Int32.self) != nil
        else { throw failure("its size is cut short") }
        let type = PostgresDataType(element)
        var values: [DBBValue] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let length = buffer.readInteger(as: Int32.self) else { throw failure("an element is cut short") }
            guard length >= 0 else {
                values.append(.null)
                continue
            }
            guard let slice = buffer.readSlice(length: Int(length)) else { throw failure("an element is cut short") }
            values.append(
                try DBBValue(
                    cell: PostgresCell(
                        bytes: slice, dataType: type, format: .binary, columnName: "column \(column)",
                        columnIndex: column)))
        }
        return values
    }

    /// Types whose binary form is their text.
    private static let textTypes: Set<PostgresDataType> = [
        .text, .varchar, .bpchar, .name, .json, .jsonb, .xml, PostgresDataType(705),
    ]

    private static func decoded(_ cell: PostgresCell) throws -> DBBValue {
        switch cell.dataType {
        case .int2, .int4, .int8:
            return .integer(try cell.decode(Int64.self))
        case .oid:
            guard let oid = cell.bytes.flatMap({ $0.getInteger(at: $0.readerIndex, as: UInt32.self) }) else {
                return .null
            }
            return .integer(Int64(oid))
        case .bool:
            return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8:
            return .real(try cell.decode(Double.self))
        case .numeric:
            // Sent in binary: read as a Decimal (as text it was garbage, and read as NaN). A
            // number with no digits after the point (dscale 0: a sum of integers) is an
            // integer when it fits; any other (1.0 * a / b) a double, as SQLite gives them.
            let number = NSDecimalNumber(decimal: try cell.decode(Decimal.self))
            let scale = cell.bytes.flatMap { $0.getInteger(at: $0.readerIndex + 6, as: Int16.self) } ?? 1
            // The double nearest the decimal (doubleValue can be an ulp off: 3.14 as 3.1399999999999997).
            let real = Double(number.stringValue) ?? number.doubleValue
            return scale == 0 ? Int64(number.stringValue).map(DBBValue.integer) ?? .real(real) : .real(real)
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        case .date, .timestamp, .timestamptz:
            // As table objects store a Date: seconds since 2001-01-01 UTC.
            return .real(try cell.decode(Date.self).timeIntervalSinceReferenceDate)
        case .time:
            guard let microseconds = cell.bytes.flatMap({ $0.getInteger(at: $0.readerIndex, as: Int64.self) }) else {
                return .null
            }
            let seconds = microseconds / 1_000_000
            let fraction = microseconds % 1_000_000
            let text = String(format: "%02lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60, seconds % 60)
            return .text(fraction == 0 ? text : text + String(format: ".%06lld", fraction))
        case .uuid:
            // In lower case, as PostgreSQL writes a UUID as text and table objects store one on SQLite.
            return .text(try cell.decode(UUID.self).uuidString.lowercased())
        case .void:
            return .null
        case let type where textTypes.contains(type) || type.rawValue >= 16_384:
            // User-defined types (enums, citext) are sent as their text.
            return .text(try cell.decode(String.self))
        case let type:
            throw DBBError(
                backend: .invalidValue,
                "column \(cell.columnName) has PostgreSQL type \(type), which DBBBuilder does "
                    + "not read: cast it in the query (\(cell.columnName)::text)")
        }
    }
}
#endif
