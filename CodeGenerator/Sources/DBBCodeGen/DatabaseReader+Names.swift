/// The Swift names of what a database holds: a class per table, a property per column, each
/// a valid name that nothing beside it already means, and none taken twice.
extension DatabaseReader {
    /// A property name for a column: the column itself when it is an identifier starting
    /// lowercase, else a lowerCamelCase spelling of it (`first name` is `firstName`, `1st` is
    /// `column1st`); `…Value` when that is a member of every table object (`isDeleted`) or a
    /// keyword that cannot name one (`self`).
    static func propertyName(_ column: String) -> String {
        if DeclarationParser.isIdentifier(column), column.first?.isLowercase == true,
            !ReservedNames.isReservedProperty(column)
        {
            return column
        }
        let words = column.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        var name = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if name.isEmpty || name.first?.isLowercase != true { name = "column" + name }
        if ReservedNames.isReservedProperty(name) { name += "Value" }
        return name
    }

    /// The class name a table asks for: itself when it is a class name, else capitalized
    /// (`order` is `Order`, `my_table` is `MyTable`); `…Table` when that is a type the
    /// classes use (`Date`, `DBBManager`), `Table…` when it does not start with a capital.
    static func className(_ table: String) -> String {
        if PropertyType.isClassName(table), !ReservedNames.isReservedType(table) { return table }
        var name = capitalized(table)
        if name.isEmpty || name.first?.isUppercase != true { name = "Table" + name }
        if !PropertyType.isClassName(name) || ReservedNames.isReservedType(name) { name += "Table" }
        return name
    }

    private static func capitalized(_ table: String) -> String {
        let words = table.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The class of each of `tables` (in the order given), and a note for each class that is
    /// not the table's plain capitalized name. A table named as its class keeps it; another
    /// whose name would be the same class (`my_table` beside `MyTable`) is numbered
    /// (`MyTable2`). Names compare ignoring case, as the files `<Class>.swift` do on macOS.
    static func classNames(_ tables: [String]) -> (classes: [String: String], notes: [String: String]) {
        let wanted = tables.map { (name: className($0), keeps: className($0) == $0) }
        let assigned = uniqueNames(wanted) { $0.lowercased() }
        var classes: [String: String] = [:]
        var notes: [String: String] = [:]
        for (index, table) in tables.enumerated() {
            let name = assigned[index]
            classes[table] = name
            if name != wanted[index].name {
                let owner = tables.indices.first { assigned[$0].lowercased() == wanted[index].name.lowercased() }
                notes[table] =
                    "table \(table) is generated as class \(name), since \(wanted[index].name) is the class of "
                    + "table \(owner.map { tables[$0] } ?? "another")"
            } else if name != table, name != capitalized(table) {
                notes[table] =
                    "table \(table) is generated as class \(name): \(capitalized(table)) is not a class name, or a "
                    + "name of Swift, Foundation or DBBBuilder the classes use"
            }
        }
        return (classes, notes)
    }

    /// Names as `wanted` asks for them, none twice (as `key` compares them): the names that
    /// `keeps` first, in order, then the others, each numbered (`name2`, `name3`) when taken.
    static func uniqueNames(_ wanted: [(name: String, keeps: Bool)], key: (String) -> String) -> [String] {
        var taken: Set<String> = []
        var result: [String?] = wanted.map { _ in nil }
        for (index, entry) in wanted.enumerated() where entry.keeps && taken.insert(key(entry.name)).inserted {
            result[index] = entry.name
        }
        for (index, entry) in wanted.enumerated() where result[index] == nil {
            var name = entry.name
            var number = 2
            while !taken.insert(key(name)).inserted {
                name = entry.name + String(number)
                number += 1
            }
            result[index] = name
        }
        return result.map { $0 ?? "" }
    }
}
