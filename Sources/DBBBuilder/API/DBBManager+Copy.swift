import DBBSQLite

extension DBBManager {
    /// Copies objects of another manager into this manager's database as new rows, with
    /// everything they refer to, in one transaction, and returns the copies (objects of this
    /// manager, in the order of `objects`). An object met twice in the graph is copied once.
    ///
    /// Objects belong to the manager that made or fetched them: saving one through another
    /// manager is refused (``DBBError/Kind/foreignObject``). Copying is the explicit way to
    /// move data between databases.
    ///
    /// ```swift
    /// let archived = try archive.copy(try Order.instances(matching: lastYear, manager: live))
    /// ```
    ///
    /// The copies take the sources' properties as they are in memory and their `createdTime`.
    /// An object a partial or sparse fetch left properties out of
    /// (``DBBTableObject/isPartiallyLoaded``) is refused: its copy would store new objects'
    /// values for them.
    /// - Throws: ``DBBError`` as a save does, and ``DBBError/Kind/invalidOption`` naming the
    ///   class, the id and the properties of a partially loaded object; nothing is written then.
    public func copy<T: DBBTableObject>(_ objects: [T]) throws -> [T] {
        try refuseWriteIfReadOnly("copy(_:) into it")
        var copies: [ObjectIdentifier: DBBTableObject] = [:]
        var roots: [(object: DBBTableObject, mapping: TableMapping)] = []
        func copy(_ source: DBBTableObject) throws -> DBBTableObject {
            if let made = copies[ObjectIdentifier(source)] { return made }
            let type = type(of: source)
            if source.isPartiallyLoaded {
                throw DBBError(
                    .invalidOption, table: try mapping(for: type).tableName, rowID: source.id,
                    "\(type) \(source.id) was fetched without \(source.unloadedPropertyNames.joined(separator: ", ")): "
                        + "its copy would store a new object's values for them. Nothing was copied; fetch the objects "
                        + "whole (without propertyNames or sparse population) to copy them")
            }
            let mapping = try mapping(for: type)
            let target = type.init(dbManager: self)
            copies[ObjectIdentifier(source)] = target
            target.createdTime = source.createdTime
            for column in mapping.columns { column.access.copy(source, target) }
            for join in mapping.joins {
                if let relation = join.access.relation {
                    relation.assignObjects(try relation.objects(source).map(copy), target)
                } else {
                    _ = try join.access.assign(join.access.values(source), target)
                }
            }
            return target
        }
        for object in objects {
            let target = try copy(object)
            roots.append((target, try mapping(for: type(of: object))))
        }
        try saving(nil) { session in
            for root in roots { try session.save([root.object], root.mapping) }
        }
        return roots.map { $0.object as! T }
    }
}
