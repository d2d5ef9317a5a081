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
    /// The value of a result cell: integers (booleans as 1 and 0), doubles (and numerics),
    /// text and bytes; other types are read as text.
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
            let text = try cell.decode(String.self)
            self = Int64(text).map(DBBValue.integer) ?? .real(Double(text) ?? .nan)
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            self = .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        default:
            self = .text(try cell.decode(String.self))
        }
    }
}
