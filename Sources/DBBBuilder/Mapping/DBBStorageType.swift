/// How a property is stored, as DBBBuilder names it. Inferred from the key path's value type
/// by ``DBBPropertyPersistence``; you rarely write one yourself.
///
/// Scalars live in a column of the object's table; arrays, `Data` and references to other
/// table objects live in join tables `<Table>_<column>`, as DBBBuilder lays them out. A
/// `RawRepresentable` enum is stored as its raw value (`.string` or `.int`), a `URL` as text
/// (`.string`); see <doc:TableObjectsAndMappings#Value-types>.
public enum DBBStorageType: Sendable, CustomStringConvertible {
    /// `Bool`, stored as 1/0 in a `Boolean` column.
    case bool
    /// Any fixed-width integer, in an `Integer` column.
    case int
    /// `Double` or `Float`, in a `Real` column.
    case float
    /// `String`, in a `Text` column.
    case string
    /// `Date`, as seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`) in a `Real` column.
    case date
    /// A reference to another table object, stored as its id in a join table.
    case dbbObject(objectType: DBBTableObject.Type)
    /// `[Bool]` in a join table.
    case boolArray
    /// An array of integers in a join table.
    case intArray
    /// `[Double]` or `[Float]` in a join table.
    case floatArray
    /// `[String]` in a join table.
    case stringArray
    /// `[Date]` in a join table.
    case dateArray
    /// An array of table objects, stored as their ids in a join table.
    case dbbObjectArray(objectType: DBBTableObject.Type)
    /// `Data`, in a `BLOB` column of a join table.
    case binary
    /// `Decimal`, exactly: its digits as text on SQLite (a `Text` column, compared with the
    /// `dbb_decimal` collation), `numeric` on PostgreSQL.
    case decimal
    /// `UUID`: text in lower case on SQLite (compared without case), `uuid` on PostgreSQL.
    case uuid
    /// A `Codable` value marked to be stored as JSON (`@JSON`, `DBBPropertyPersistence(json:)`):
    /// text on SQLite, `jsonb` on PostgreSQL.
    case json
    /// `[Decimal]` in a join table.
    case decimalArray
    /// `[UUID]` in a join table.
    case uuidArray

    /// Whether values live in a join table rather than a column of the object's table.
    public var isStoredInJoinTable: Bool {
        switch self {
        case .bool, .int, .float, .string, .date, .decimal, .uuid, .json: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .date: "date"
        case .dbbObject(let type): "dbbObject(\(type))"
        case .boolArray: "boolArray"
        case .intArray: "intArray"
        case .floatArray: "floatArray"
        case .stringArray: "stringArray"
        case .dateArray: "dateArray"
        case .dbbObjectArray(let type): "dbbObjectArray(\(type))"
        case .binary: "binary"
        case .decimal: "decimal"
        case .uuid: "uuid"
        case .json: "json"
        case .decimalArray: "decimalArray"
        case .uuidArray: "uuidArray"
        }
    }
}
