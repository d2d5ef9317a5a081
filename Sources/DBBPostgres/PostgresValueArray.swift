#if Postgres
@_spi(DBBBackend) import DBBBuilder
import NIOCore
import PostgresNIO

/// One array parameter of a set-based write, in PostgreSQL's binary array format: a
/// `bigint[]`, `double precision[]`, `text[]` or `bytea[]` of one dimension, `NULL` elements
/// allowed. A statement then takes a column of many rows as one parameter (`unnest($1, $2…)`),
/// so its text and parameter count do not grow with the rows.
struct PostgresValueArray: PostgresDynamicTypeEncodable {
    let array: DBBValueArray

    init(_ array: DBBValueArray) { self.array = array }

    var psqlType: PostgresDataType {
        switch array.element {
        case .integer: .int8Array
        case .real: .float8Array
        case .text: .textArray
        case .blob: .byteaArray
        }
    }

    var psqlFormat: PostgresFormat { .binary }

    private var elementType: PostgresDataType {
        switch array.element {
        case .integer: .int8
        case .real: .float8
        case .text: .text
        case .blob: .bytea
        }
    }

    /// The header (dimensions, whether a `NULL` is held, the element type, length and lower
    /// bound 1), then each element as its length (-1 for `NULL`) and bytes. Values are of the
    /// array's kind or `NULL` (``DBBValueArray``).
    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        let values = array.values
        buffer.writeInteger(Int32(values.isEmpty ? 0 : 1))
        buffer.writeInteger(Int32(values.contains { if case .null = $0 { true } else { false } } ? 1 : 0))
        buffer.writeInteger(elementType.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))
        buffer.writeInteger(Int32(1))
        for value in values {
            switch (value, array.element) {
            case (.integer(let integer), .integer):
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(integer)
            case (.real(let real), .real):
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(real.bitPattern)
            case (.text(let text), .text):
                let lengthIndex = buffer.writerIndex
                buffer.writeInteger(Int32(0))
                let written = buffer.writeString(text)
                buffer.setInteger(Int32(written), at: lengthIndex)
            case (.blob(let data), .blob):
                buffer.writeInteger(Int32(data.count))
                buffer.writeBytes(data)
            case (.null, _):
                buffer.writeInteger(Int32(-1))
            default:
                // SetWriter converts or refuses every other value before it binds one.
                preconditionFailure("a \(array.element) array was given \(value)")
            }
        }
    }
}
#endif
