import DBBSQLite
import Foundation

// The set-based side of the save (PostgreSQL's): the walk puts rows into the session's
// ``ChangeSet`` instead of writing them, and ``SaveSession/flush(sticky:)`` has ``SetWriter``
// write them a set at a time.
extension SaveSession {
    /// ``write(_:_:)`` on a set-writing connection: the row and the join rows go into
    /// `changes`, written with the other rows of their table and shape when it is flushed. A
    /// conditional UPDATE (``precondition``) is written first at the next flush, after what
    /// the change set held before it.
    func writeLater(
        _ object: DBBTableObject, _ position: Int, _ mapping: TableMapping, from start: Int, isNew: Bool,
        _ changedJoins: [Int],
        into changes: ChangeSet
    ) throws {
        if !isNew, precondition?.object == ObjectIdentifier(object) {
            try flush()
            changes.conditional = ChangeSet.Conditional(
                object: object, mapping: mapping, start: start, columns: changedColumns,
                expected: expectedTime(of: object))
        } else {
            for index in isNew ? Array(mapping.columns.indices) : changedColumns {
                if let error = rows.unstorable(values.base[start + index], in: mapping.columns[index].storageType) {
                    throw error.about(table: mapping.tableName, property: mapping.columns[index].name)
                }
            }
            if isNew { object.createdTime = object.createdTime ?? now }
            object.modifiedTime = now
            changes.add(object, mapping, isNew ? .insert : .update(changedColumns), valuesFrom: start)
        }
        confirm(object)
        try saveRelated(of: object, mapping)
        let snapshot = journal.addSnapshot(ofHooked: position, mapping, start: start, joins: [])
        guard !mapping.joins.isEmpty else { return }
        let joins = mapping.joins.map { join -> ChangeSet.JoinValues in
            join.access.relation.map { .objects($0.objects(object)) } ?? .values(join.access.values(object))
        }
        changes.writeJoins(
            ChangeSet.JoinWrite(
                object: object, mapping: mapping, isNew: isNew, changedJoins: changedJoins,
                snapshot: snapshot, joins: joins))
    }

    /// Writes what ``changes`` holds: the new rows of each table, then the join rows, a
    /// statement a table. Runs when the walk ends, when a save hook saves (before and at the
    /// end of its savepoint) and before user code uses the connection inside the save (a hook
    /// that fetches or deletes), so that it sees what the save wrote before it.
    ///
    /// A failure is `sticky` unless a savepoint that rolls back holds what failed: the save
    /// fails with it, even when the hook that caused the flush swallowed the error.
    ///
    /// The `last` flush, at the end of the save, tells the connection when it is one statement
    /// of one row (an INSERT or an UPDATE) and no join rows: the transaction's only statement
    /// if nothing ran before it, which PostgreSQL then runs without BEGIN and COMMIT. (What a
    /// row's statement refuses, the server refuses: an id of 0 included.)
    func flush(sticky: Bool = true, last: Bool = false) throws {
        guard let changes, let setWriter else { return }
        if let flushFailure { throw flushFailure }
        guard !changes.isEmpty else { return }
        let rowStatements = changes.sets.count + (changes.conditional == nil ? 0 : 1)
        if last, rowStatements == 1, changes.sets.allSatisfy({ $0.objects.count == 1 }),
            !changes.joinWrites.contains(where: writesJoinRows)
        {
            connection.commitsWithNextStatement()
        }
        do {
            if let conditional = changes.conditional {
                try naming(conditional.mapping) {
                    try rows.updateRow(
                        conditional.object, conditional.mapping, from: conditional.start, conditional.columns,
                        expected: conditional.expected)
                }
            }
            for rows in changes.sets {
                try naming(rows.mapping) {
                    switch rows.shape {
                    case .insert: try setWriter.insert(rows, values: values, now: now)
                    case .update(let columns): try setWriter.update(rows, columns, values: values, now: now)
                    }
                }
            }
            try writeJoinRows(changes.joinWrites, with: setWriter)
            changes.removeAll()
        } catch {
            changes.removeAll()
            if sticky { flushFailure = error }
            throw error
        }
    }

    /// Whether `write` writes join rows of any of its join properties.
    private func writesJoinRows(_ write: ChangeSet.JoinWrite) -> Bool {
        write.mapping.joins.indices.contains { Self.writes(write, join: $0, write.joins[$0].current) }
    }

    /// Whether `write` writes the join rows of its join property `index`, which holds
    /// `current`: all of them when its object is new, none unless they changed otherwise.
    private static func writes(_ write: ChangeSet.JoinWrite, join index: Int, _ current: [DBBValue]) -> Bool {
        if write.isNew { return !current.isEmpty }
        return write.changedJoins.contains(index) || write.object.joinDiffers(index, current, write.mapping)
    }

    /// Writes the join rows of `writes`, whose rows exist now: those of the properties that are
    /// new or changed, grouped by join table; and gives each its snapshot's join values.
    private func writeJoinRows(_ writes: [ChangeSet.JoinWrite], with setWriter: SetWriter) throws {
        var groups: [SetWriter.JoinRows] = []
        /// The group of each join property, and the owners it holds: an owner met again (two
        /// objects of one row) starts a new group, so its rows replace the earlier ones.
        var groupIndex: [JoinKey: Int] = [:]
        var owners: [Set<Int64>] = []
        var references: [(targets: [DBBTableObject], join: JoinProperty, mapping: TableMapping)] = []
        for write in writes {
            let (object, mapping) = (write.object, write.mapping)
            // A hook of a related object may have deleted this one (see write(_:_:)).
            if object.isDeleted {
                throw DBBError(
                    .rowNotFound, table: mapping.tableName, rowID: object.id,
                    "row \(object.id) was deleted by a save hook while its own save was writing it; "
                        + "the save was rolled back rather than write join rows for a row that is gone")
            }
            var joinValues: [[DBBValue]] = []
            joinValues.reserveCapacity(mapping.joins.count)
            for (index, join) in mapping.joins.enumerated() {
                let current = write.joins[index].current
                joinValues.append(current)
                guard Self.writes(write, join: index, current) else { continue }
                if case .objects(let targets) = write.joins[index] { references.append((targets, join, mapping)) }
                for (position, value) in current.enumerated() {
                    if let error = rows.unstorable(value, in: join.storageType) {
                        throw error.about(table: mapping.tableName, property: "\(join.name)[\(position)]")
                    }
                }
                let key = JoinKey(mapping: ObjectIdentifier(mapping), join: index)
                let group: Int
                if let known = groupIndex[key], !owners[known].contains(object.id) {
                    group = known
                } else {
                    group = groups.count
                    groupIndex[key] = group
                    groups.append(SetWriter.JoinRows(join: join, mapping: mapping))
                    owners.append([])
                }
                owners[group].insert(object.id)
                if !write.isNew { groups[group].replaced.append(object.id) }
                groups[group].owners.append(contentsOf: repeatElement(object.id, count: current.count))
                groups[group].values.append(contentsOf: current)
            }
            journal.setJoins(joinValues, of: write.snapshot)
        }
        try requireRows(references)
        for group in groups {
            try naming(group.mapping) { try setWriter.write(group) }
        }
    }

    /// Makes sure the rows of every related object of `references` exist before join rows point
    /// at them (see ``requireRows(of:_:_:)``), with one query a class of related objects.
    private func requireRows(_ references: [(targets: [DBBTableObject], join: JoinProperty, mapping: TableMapping)])
        throws
    {
        // By class of related object: its mapping, and the first reference to each id.
        var unconfirmed: [ObjectIdentifier: (mapping: TableMapping, referrers: [Int64: (JoinProperty, TableMapping)])] =
            [:]
        for reference in references {
            let targets = reference.targets.filter { !isConfirmed($0) }
            guard let first = targets.first else { continue }
            // A new object no save inserted: the row-at-a-time check names it.
            if targets.contains(where: \.isNew) { try requireRows(of: targets, reference.join, reference.mapping) }
            let key = ObjectIdentifier(type(of: first))
            if unconfirmed[key] == nil { unconfirmed[key] = (try manager.mapping(for: type(of: first)), [:]) }
            for target in targets where unconfirmed[key]?.referrers[target.id] == nil {
                unconfirmed[key]?.referrers[target.id] = (reference.join, reference.mapping)
            }
        }
        for (_, group) in unconfirmed {
            let ids = Set(group.referrers.keys)
            let existing = Set(
                try connection.fetchAll(group.mapping.statements.existingIDs, [SQLText.idList(ids)]) {
                    $0.int64(at: 0)
                })
            if let missing = ids.subtracting(existing).min(), let (join, mapping) = group.referrers[missing] {
                throw Self.missingRow(missing, of: group.mapping, join, mapping)
            }
        }
        for reference in references { for target in reference.targets { confirm(target) } }
    }

    /// A join property of a class: the join rows of one table.
    private struct JoinKey: Hashable {
        let mapping: ObjectIdentifier
        let join: Int
    }
}
