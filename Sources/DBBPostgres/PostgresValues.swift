import DBBBuilder
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
    /// The value of a result cell: integers (booleans as 1 and 0), doubles (numerics as an
    /// integer when whole, else a double), text and bytes, dates and timestamps as seconds
    /// since 2001 (as table objects store dates), UUIDs as text; other types as text when
    /// postgres-nio reads them so (cast in the query otherwise: `CAST(x AS text)`).
    init(cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid:
            self = .integer(try cell.decode(Int64.self))
        case .bool:
            self = .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8:
            self = .real(try cell.decode(Double.self))
        case .numeric:
            // Sent in binary: read as a Decimal (as text it was garbage, and read as NaN). A
            // number with no digits after the point (dscale 0: a sum of integers) is an
            // integer when it fits; any other (1.0 * a / b) a double, as SQLite gives them.
            let number = NSDecimalNumber(decimal: try cell.decode(Decimal.self))
            let scale = cell.bytes.flatMap { $0.getInteger(at: $0.readerIndex + 6, as: Int16.self) } ?? 1
            self = scale == 0 ? Int64(number.stringValue).map(DBBValue.integer) ?? .real(number.doubleValue) : .real(number.doubleValue)
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            self = .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        case .date, .timestamp, .timestamptz:
            // As table objects store a Date: seconds since 2001-01-01 UTC.
            self = .real(try cell.decode(Date.self).timeIntervalSinceReferenceDate)
        case .uuid:
            self = .text(try cell.decode(UUID.self).uuidString)
        default:
            self = .text(try cell.decode(String.self))
        }
    }
}
