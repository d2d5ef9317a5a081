import DBBBuilder
import DBBPostgres
import Foundation

/// The object each ``RefHolder`` refers to.
@DBBTable
final class RefTarget: DBBTableObject {
    var n = 0
}

/// An object with one reference: a row and a join row.
@DBBTable
final class RefHolder: DBBTableObject {
    var n = 0
    var target: RefTarget?
}

/// New holders, each referring to a new target of its own.
private func makeHolders(_ count: Int, _ manager: DBBManager) -> [RefHolder] {
    (0..<count).map { n in
        let holder = RefHolder(dbManager: manager)
        holder.n = n
        holder.target = RefTarget(dbManager: manager)
        holder.target?.n = n
        return holder
    }
}

/// The same program on both backends: a batch of objects that each refer to a new one.
func referenceWorkload(objects: Int, url: String, directory: URL) throws -> Workload {
    let sqlite = try DBBManager(url: directory.appendingPathComponent("references.sqlite"))
    let postgres = try DBBManager(postgres: url)
    for manager in [sqlite, postgres] { try manager.register([RefTarget.self, RefHolder.self]) }
    func emptied(_ manager: DBBManager) throws {
        try RefHolder.deleteAll(manager: manager)
        try RefTarget.deleteAll(manager: manager)
    }
    func save(on manager: DBBManager) -> Contender {
        .prepared(manager === sqlite ? "DBBTableObject.save on SQLite" : "DBBTableObject.save on PostgreSQL") {
            try emptied(manager)
            return {
                let holders = makeHolders(objects, manager)
                try RefHolder.save(holders, manager: manager)
                return holders.reduce(0) { $0 + ($1.target?.id == 0 ? -1 : $1.n) }
            }
        }
    }
    func fluent(_ name: String, _ database: @escaping () throws -> FluentDatabase) -> Contender {
        .prepared(name) {
            let fluent = try database()
            try fluent.emptyReferenceTables()
            return { try fluent.saveHolders(objects) }
        }
    }
    return Workload(
        name: "Save \(objects.formatted()) new objects, each referring to a new one, in one batch",
        summary:
            "The same program on a SQLite file and on PostgreSQL: \(objects.formatted()) objects each with a "
            + "reference to a new object of another class (2 rows and a join row each), saved in one call. "
            + "Fluent, as its documentation models a reference: a `@Parent` column, each target created alone "
            + "(a batch `create` gives no ids), then the holders by batch `create`, in one transaction. "
            + "Checksum: the sum of the holders' numbers (a target left without an id counts -1).",
        goals: [
            Goal(contender: "on PostgreSQL", baseline: "on SQLite", maximum: 3),
            Goal(contender: "DBBTableObject.save on SQLite", baseline: "Fluent on SQLite", maximum: 1),
            Goal(contender: "DBBTableObject.save on PostgreSQL", baseline: "Fluent on PostgreSQL", maximum: 1),
        ],
        contenders: [
            save(on: sqlite), save(on: postgres),
            fluent("Fluent on SQLite") { .sqlite(directory.appendingPathComponent("references-fluent.sqlite").path) },
            fluent("Fluent on PostgreSQL") { try .postgres(url) },
        ],
        expectedChecksum: objects * (objects - 1) / 2)
}
