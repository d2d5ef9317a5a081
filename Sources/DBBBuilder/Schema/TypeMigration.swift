import DBBFormat

/// Judges a change of a property's Swift type by whether every stored value comes back
/// through the new type, and changes the column's declared type when the values need it.
///
/// The type the values were written with is the one the catalog recorded (``SchemaCatalog``);
/// without a record (a file DBBBuilder wrote, a database from before the catalog) it is the
/// widest the column's declared type holds: `Int64` for an integer column, `Double` for a real
/// one, `Bool` for DBBBuilder's `Boolean`, and for a column declared otherwise (SQLite's
/// `NUMERIC` affinity) every value is looked at.
///
/// - **Widening** (`Int8` → `Int`, `Bool` → `Int`, `Float` → `Double`, `Int32` → `Double`):
///   applied without a look at the rows; a real column becomes an integer one, or the other way,
///   when the type needs it.
/// - **Narrowing** (`Int` → `Int8`, `Int` → `Bool`, `Int` → `Double`, `Double` → `Float`,
///   `Double` → `Int`): the rows are looked at, and the change is refused with
///   ``DBBError/Kind/migrationRefused`` naming class, property, the first row (by id) whose value
///   would not come back, and that value — an integer out of the new range, one a `Double` or
///   `Float` would round (beyond ±2^53, ±2^24), a real a `Float` would round or not hold
///   (`0.1`, `1e300`), a fraction or infinity for an integer type. When every value fits, it is
///   applied.
/// - A change between a number and a value of another kind (`String` ↔ `Int`, `Date` ↔ `Int`)
///   is left to ``SchemaMigration``, which refuses it as before. `Date` ↔ `Double` keeps the
///   same seconds, and is applied as it is.
///
/// The declared type changes with `ALTER TABLE … ALTER COLUMN … TYPE` (PostgreSQL) or a rebuild
/// of the table (SQLite, see ``TableRebuild``), keeping every row, id, index and trigger.
struct TypeMigration {
    let connection: any DatabaseConnection
    /// Whether to judge only: a change of declared type is then returned unchecked, for the
    /// caller to refuse.
    var readOnly = false
    private var dialect: any DBBDialect { connection.dialect }

    /// A column a property's values are stored in.
    struct StoredColumn {
        let table: String
        let column: String
        let declaredType: String
        /// The column holding the id of the object a row belongs to: `id`, or a join table's
        /// `<Table>_ID`.
        let owner: String
    }

    /// A column whose declared type changes, so that it holds the values of its property's new type.
    struct Retype {
        let stored: StoredColumn
        let property: String
        let newType: String
        let swiftType: String
    }

    /// What a property's type change needs.
    enum Verdict {
        /// Nothing: every stored value comes back.
        case fits
        /// The column's declared type changes (every stored value comes back through it).
        case retype(Retype)
        /// The column holds values of another kind than the property's: not a change of numbers.
        case otherKind
    }

    /// Judges the values of `stored` for `property` of `mapping`, now of Swift type `swiftType`
    /// stored as `storage`, and formerly of type `previous` (`nil` when not recorded).
    /// - Throws: ``DBBError/Kind/migrationRefused`` naming the first row whose value would not come back.
    func judge(
        _ stored: StoredColumn, property: String, swiftType: String, storage: DBBStorageType, previous: String?,
        of mapping: TableMapping
    ) throws -> Verdict {
        let declared = ValueDomain.widest(declaredType: stored.declaredType, dialect)
        let holds = dialect.holds(storage, declaredType: stored.declaredType)
        guard let domain = ValueDomain(swiftType: swiftType) else { return holds ? .fits : .otherKind }
        // A column of numbers of the other kind (reals for an integer type) can change to this kind.
        guard holds || declared != nil else { return .otherKind }
        let retype = Retype(
            stored: stored, property: property, newType: dialect.columnType(storage), swiftType: swiftType)
        if readOnly && !holds { return .retype(retype) }
        let former = previous.flatMap(ValueDomain.init(swiftType:)) ?? declared
        if former.map(domain.contains) != true {
            if !holds, let lock = dialect.lockAgainstWrites(stored.table) {
                try connection.change(.lockAgainstWrites, on: stored.table, lock)
            }
            try checkRows(stored, fit: domain, property: property, swiftType: swiftType, previous: previous, mapping)
        }
        return holds ? .fits : .retype(retype)
    }

    /// Refuses the change when a stored value of `stored` would not come back through `domain`.
    private func checkRows(
        _ stored: StoredColumn, fit domain: ValueDomain, property: String, swiftType: String, previous: String?,
        _ mapping: TableMapping
    ) throws {
        // In a column of integers only those outside the sure range can fail; elsewhere every value is looked at.
        let integerColumn =
            dialect.holds(.int, declaredType: stored.declaredType)
            && !dialect.holds(.float, declaredType: stored.declaredType)
        let bounds = domain.integersThatFit
        let statement = try connection.statement(
            TypeChangeSQL(dialect: dialect).storedValues(
                stored.column, of: stored.table, owner: stored.owner, outsideBounds: integerColumn))
        defer { statement.reset() }
        try statement.bind(integerColumn ? [.integer(bounds.lowerBound), .integer(bounds.upperBound)] : [])
        let row = statement.reader
        while try statement.step() {
            let value = row.value(at: 1)
            guard !domain.fits(value) else { continue }
            throw misfit(
                value, ownerID: row.int64(at: 0), stored, property: property, swiftType: swiftType, previous: previous,
                mapping)
        }
    }

    private func misfit(
        _ value: DBBValue, ownerID: Int64, _ stored: StoredColumn, property: String, swiftType: String,
        previous: String?, _ mapping: TableMapping
    ) -> DBBError {
        let shown =
            switch value {
            case .integer(let integer): "\(integer)"
            case .real(let real): "\(real)"
            default: "\(value)"
            }
        let former = previous.map { "was \($0)" } ?? "has a column declared '\(stored.declaredType)'"
        let place =
            stored.table == mapping.tableName
            ? "row id \(ownerID) of \(stored.table) holds \(shown) in its column '\(stored.column)'"
            : "the object with id \(ownerID) holds \(shown) among its values (join table \(stored.table))"
        return DBBError(
            .migrationRefused, table: mapping.tableName, property: property, rowID: ownerID,
            "\(String(reflecting: mapping.objectType)).\(property) is now \(swiftType) (it \(former)), but \(place), "
                + "which \(swiftType) does not give back as stored. Nothing was changed: change that value, or give the "
                + "property a type that holds it")
    }

    // MARK: - Applying

    /// Changes the declared types `retypes` say, inside the caller's transaction: in place
    /// where the engine can, else by rebuilding each table once.
    /// - Returns: what changed, one line each, for the log.
    func apply(_ retypes: [Retype]) throws -> [String] {
        var rebuilds: [String: [Retype]] = [:]
        for retype in retypes {
            let stored = retype.stored
            if let sql = dialect.alterColumnType(stored.column, of: stored.table, to: retype.newType) {
                try connection.change(.changeType, on: stored.table, sql)
            } else {
                rebuilds[stored.table, default: []].append(retype)
            }
        }
        for (table, retypes) in rebuilds.sorted(by: { $0.key < $1.key }) {
            let types = Dictionary(
                retypes.map { ($0.stored.column, $0.newType) }, uniquingKeysWith: { _, last in last })
            try TableRebuild(connection: connection, table: table).run(
                editing: [:], retyping: types,
                purpose: "changing the declared type of \(types.keys.sorted().joined(separator: ", "))")
        }
        return retypes.map {
            "changed the type of \"\($0.stored.column)\" of \"\($0.stored.table)\" from \($0.stored.declaredType) "
                + "to \($0.newType) (\($0.property) is now a \($0.swiftType))"
        }
    }
}
