/// The numbers a column property's Swift type gives back as they were stored: what a
/// registration compares when a property's type changes (see ``TypeMigration``). Types whose
/// values are not numbers to judge (`String`, `Date`, `Data`, references) have none.
enum ValueDomain: Equatable {
    /// Whole numbers from `min` to `max`: the integer types (`UInt64` and `UInt` up to
    /// `Int64.max`, the largest integer stored), and `Bool`, 0 or 1.
    case integer(min: Int64, max: Int64)
    /// `Double`: every real, and the integers it holds exactly (all within ±2^53).
    case double
    /// `Float`: the reals it holds exactly, and the integers (all within ±2^24).
    case float

    /// ±2^53: every integer up to it is a `Double`.
    static let doubleExactIntegers: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
    /// ±2^24: every integer up to it is a `Float`.
    static let floatExactIntegers: ClosedRange<Int64> = -(1 << 24)...(1 << 24)

    /// The domain of the type `name` names as a mapping records it (`Int8`, `Optional<Float>`;
    /// the element type of `Array<Int8>`), or `nil`.
    init?(swiftType name: String) {
        var name = Substring(name)
        for wrapper in ["Optional<", "Array<", "Optional<"] where name.hasPrefix(wrapper) && name.hasSuffix(">") {
            name = name.dropFirst(wrapper.count).dropLast()
        }
        switch name {
        case "Bool": self = .integer(min: 0, max: 1)
        case "Int8": self = .integer(Int8.self)
        case "Int16": self = .integer(Int16.self)
        case "Int32": self = .integer(Int32.self)
        case "Int", "Int64": self = .integer(Int64.self)
        case "UInt8": self = .integer(UInt8.self)
        case "UInt16": self = .integer(UInt16.self)
        case "UInt32": self = .integer(UInt32.self)
        case "UInt", "UInt64": self = .integer(min: 0, max: .max)
        case "Double": self = .double
        case "Float": self = .float
        default: return nil
        }
    }

    private static func integer<T: FixedWidthInteger>(_ type: T.Type) -> ValueDomain {
        .integer(min: Int64(T.min), max: Int64(T.max))
    }

    /// Whether every value of `other` is one of these: the change from `other` to this domain
    /// needs no look at the rows.
    func contains(_ other: ValueDomain) -> Bool {
        switch (self, other) {
        case (.integer(let min, let max), .integer(let otherMin, let otherMax)): min <= otherMin && otherMax <= max
        case (.double, .double), (.double, .float), (.float, .float): true
        case (.double, .integer(let min, let max)): Self.doubleExactIntegers ~= min && Self.doubleExactIntegers ~= max
        case (.float, .integer(let min, let max)): Self.floatExactIntegers ~= min && Self.floatExactIntegers ~= max
        default: false
        }
    }

    /// Integers that surely fit: a stored integer within them needs no closer look, so the
    /// rows are searched for the others only.
    var integersThatFit: ClosedRange<Int64> {
        switch self {
        case .integer(let min, let max): min...max
        case .double: Self.doubleExactIntegers
        case .float: Self.floatExactIntegers
        }
    }

    /// Whether `value`, as stored, comes back unchanged through a property of this domain.
    /// `NULL`, text and bytes are not judged here (a fetch refuses text or bytes in a number
    /// column whatever the type, naming the row).
    func fits(_ value: DBBValue) -> Bool {
        switch (self, value) {
        case (.integer(let min, let max), .integer(let integer)): min <= integer && integer <= max
        case (.integer(let min, let max), .real(let real)): Int64(exactly: real).map { min <= $0 && $0 <= max } ?? false
        case (.double, .integer(let integer)): Double(exactly: integer) != nil
        case (.float, .integer(let integer)): Float(exactly: integer) != nil
        case (.float, .real(let real)): Double(Float(real)) == real
        default: true
        }
    }

    /// The widest domain of a column declared `declaredType` when no registration recorded
    /// its property's type (a file DBBBuilder wrote): `Bool` for DBBBuilder's `Boolean`, `Int64`
    /// for a column that holds integers only, `Double` for one that holds reals only; `nil`
    /// when it holds both or neither (SQLite's `NUMERIC` affinity), whose values are all looked at.
    static func widest(declaredType: String, _ dialect: any DBBDialect) -> ValueDomain? {
        let (integers, reals) = (
            dialect.holds(.int, declaredType: declaredType), dialect.holds(.float, declaredType: declaredType)
        )
        if declaredType.lowercased() == dialect.columnType(.bool).lowercased(),
            dialect.columnType(.bool).lowercased() != dialect.columnType(.int).lowercased()
        {
            return .integer(min: 0, max: 1)
        }
        if integers && !reals { return .integer(Int64.self) }
        if reals && !integers { return .double }
        return nil
    }
}
