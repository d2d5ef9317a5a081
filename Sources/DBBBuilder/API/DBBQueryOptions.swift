import DBBSQLite

/// What to fetch and in which order, as DBBBuilder's query options, plus ``arguments`` for
/// `?` placeholders in the conditions.
///
/// ```swift
/// var options = DBBQueryOptions.options(withConditions: ["lastName = ?", "age > ?"],
///                                       sortColumns: ["firstName"])
/// options.arguments = ["O'Brien", 30]      // bound, never pasted into the SQL
/// let people = try Person.instances(matching: options, manager: manager)
/// ```
public struct DBBQueryOptions: Sendable, Hashable {
    /// SQL conditions joined with `AND`, or with `OR` when one item is `"OR"`. Property names
    /// in them are replaced by their quoted column names (a property may be named like a
    /// keyword: `order`, `group`); string literals are left alone. A condition on a join
    /// property tests its join rows: `participants IN (?)` selects the objects with such a
    /// row, `NOT participants IN (?)` those without (empty ones included), `project IS NULL`
    /// those with no row.
    public var conditions: [String]?

    /// Values for the `?` placeholders of ``conditions``, in order, as Swift values —
    /// `[customer.id, "DE", someDate, nil]` — converted as the manager's raw SQL converts them
    /// (a `Date` as seconds since 2001, `nil` as `NULL`); `DBBValue`s (`.integer(id)`) too.
    /// Reading gives the converted values back.
    public var arguments: DBBArguments {
        get { argumentValues.map { $0 } }
        set { argumentValues = newValue.databaseValues }
    }

    /// ``arguments`` as they are bound.
    public private(set) var argumentValues: [DBBValue] = []

    /// The only properties to load (others keep their defaults). `id`, `createdTime` and
    /// `modifiedTime` are always loaded.
    public var propertyNames: [String]?

    /// Properties to sort by, in priority order; a `ColumnSorting.descending` item sorts them
    /// all descending. An item may also carry its own direction: `"age DESC"`. As in DBBBuilder,
    /// an item (like those of ``propertyNames`` and ``joinPropertiesToPopulate``) may name a
    /// property's column instead (`"itemName"` for a `name` property stored there); a name that
    /// is neither throws ``DBBError/Kind/unknownProperty``.
    public var sorting: [String]?

    /// The join-table properties to load; `nil` loads all of them (unless ``propertyNames`` says otherwise).
    public var joinPropertiesToPopulate: [String]?

    /// One object per distinct combination of the column properties of ``propertyNames`` (of
    /// all mapped column properties when `nil`): the one with the highest id, as DBBBuilder
    /// chose it. Join properties and `id`/`createdTime`/`modifiedTime` are not compared; with
    /// no column property to compare, the fetch throws ``DBBError/Kind/invalidOption``.
    public var distinct = false

    /// At most this many objects (a page): `LIMIT`. Without ``sorting`` the objects come in id
    /// order, so that pages follow one another. `nil`: no limit.
    ///
    /// ```swift
    /// var page = DBBQueryOptions.options(sortColumns: ["lastName", "id"])
    /// (page.limit, page.offset) = (20, 40)    // the third page of 20
    /// ```
    ///
    /// A negative value throws ``DBBError/Kind/invalidOption`` naming `limit`. For deep pages,
    /// a condition on the sort key (`id > ?` with the last id seen) reads fewer rows than a large
    /// ``offset``.
    public var limit: Int?

    /// The number of selected objects to skip before the first one returned: `OFFSET`. Without
    /// ``sorting`` the objects come in id order. `nil` or 0: none skipped; negative throws
    /// ``DBBError/Kind/invalidOption`` naming `offset`.
    public var offset: Int?

    /// The most rows the conditions can select, when the library knows it (an `id = ?`
    /// condition selects one), though ``limit`` does not say so.
    var rowBound: Int?

    /// Empty options: every object, all properties, in table order.
    public init() {}

    /// Options with conditions, loaded properties, sort columns, or any combination.
    public static func options(
        withConditions conditions: [String]? = nil, properties: [String]? = nil, sortColumns: [String]? = nil,
        ascendingSort: Bool = true, distinct: Bool = false
    ) -> DBBQueryOptions {
        var options = DBBQueryOptions()
        options.conditions = conditions
        options.propertyNames = properties
        if let sortColumns {
            options.sorting = ascendingSort ? sortColumns : sortColumns + [ColumnSorting.descending]
        }
        options.distinct = distinct
        return options
    }

    /// Options loading only `properties`.
    public static func queryOptionsWithPropertyNames(_ properties: [String], distinct: Bool = false) -> DBBQueryOptions
    {
        options(properties: properties, distinct: distinct)
    }

    /// Options sorting ascending by `columnNames`.
    public static func queryOptionsWithAscendingSortForColumns(_ columnNames: [String]) -> DBBQueryOptions {
        options(sortColumns: columnNames)
    }

    /// Options sorting descending by `columnNames`.
    public static func queryOptionsWithDescendingSortForColumns(_ columnNames: [String]) -> DBBQueryOptions {
        options(sortColumns: columnNames, ascendingSort: false)
    }

    /// Options with conditions.
    public static func queryOptionsWithConditions(_ conditions: [String], distinct: Bool = false) -> DBBQueryOptions {
        options(withConditions: conditions, distinct: distinct)
    }
}
