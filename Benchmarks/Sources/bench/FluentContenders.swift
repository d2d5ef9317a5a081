import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

// Fluent 4 (fluent-kit with its SQLite and PostgreSQL drivers), what a Swift server developer
// would pick instead: the same `Item10` table, written and read as Fluent's documentation shows
// (a model with `@ID` and `@Field`s, batch `create`, `update` of fetched models in a
// transaction, `query(on:).all()`), through its async API.

/// `Item10` as a Fluent model: the table DBBBuilder made, its columns by name.
final class FluentItem: Model, @unchecked Sendable {
    static let schema = "Item10"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @OptionalField(key: "createdTime") var createdTime: Double?
    @OptionalField(key: "modifiedTime") var modifiedTime: Double?
    @Field(key: "i0") var i0: Int
    @Field(key: "i1") var i1: Int
    @Field(key: "i2") var i2: Int
    @Field(key: "i3") var i3: Int
    @Field(key: "i4") var i4: Int
    @Field(key: "i5") var i5: Int
    @Field(key: "i6") var i6: Int
    @Field(key: "i7") var i7: Int
    @Field(key: "i8") var i8: Int
    @Field(key: "i9") var i9: Int

    init() {}

    /// Item `n` of a batch, as `makeItems` makes DBBBuilder's.
    init(_ n: Int, now: Double) {
        (createdTime, modifiedTime) = (now, now)
        (i0, i1, i2, i3, i4) = (n, n + 1, n + 2, n + 3, n + 4)
        (i5, i6, i7, i8, i9) = (n + 5, n + 6, n + 7, n + 8, n + 9)
    }

    var sum: Int { i0 + i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 + i9 }
}

/// One Fluent database (its own event loop group and thread pool), used from the bench's
/// thread: each operation runs as a task and the thread waits for it, as a synchronous
/// caller of an async API does.
final class FluentDatabase: @unchecked Sendable {
    private let databases: Databases
    private let threadPool = NIOThreadPool(numberOfThreads: 1)
    let database: any Database
    /// Rows a batch `create` inserts at most: a statement's parameters are limited (SQLite 32,766,
    /// PostgreSQL 65,535), 12 a row here.
    let rowsPerCreate: Int

    private init(_ configuration: DatabaseConfigurationFactory, rowsPerCreate: Int) {
        threadPool.start()
        databases = Databases(threadPool: threadPool, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(configuration, as: .init(string: "bench"))
        database = databases.database(
            logger: Logger(label: "fluent", factory: { _ in SwiftLogNoOpLogHandler() }),
            on: MultiThreadedEventLoopGroup.singleton.any())!
        self.rowsPerCreate = rowsPerCreate
    }

    /// Fluent on the SQLite file at `path` (sqlite-nio's own SQLite library).
    static func sqlite(_ path: String) -> FluentDatabase {
        FluentDatabase(.sqlite(.file(path), sqlLogLevel: nil), rowsPerCreate: 2_000)
    }

    /// Fluent on the PostgreSQL server at `url`.
    static func postgres(_ url: String) throws -> FluentDatabase {
        FluentDatabase(try .postgres(url: url), rowsPerCreate: 5_000)
    }

    deinit {
        databases.shutdown()
        try? threadPool.syncShutdownGracefully()
    }

    /// Runs `body` as a task and waits for it.
    func run<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let database = database
        Task {
            do {
                let value = try await body(database)
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Inserts items 0..<rows with batch `create`s in one transaction; returns the sum of the
    /// new rows' ids, 1…rows after a restart of the ids (a batch `create` does not give the
    /// models their ids: their count and largest are read back; PostgreSQL's `sum` of a `bigint`
    /// is a `numeric`, which Fluent does not decode as an `Int`).
    func insert(rows: Int) throws -> Int {
        let chunk = rowsPerCreate
        return try run { database in
            let now = Date().timeIntervalSinceReferenceDate
            try await database.transaction { transaction in
                for first in stride(from: 0, to: rows, by: chunk) {
                    try await (first..<min(first + chunk, rows)).map { FluentItem($0, now: now) }.create(
                        on: transaction)
                }
            }
            let count = try await FluentItem.query(on: database).count()
            let largest = try await FluentItem.query(on: database).max(\.$id) ?? 0
            return count == largest ? count * (count + 1) / 2 : -1
        }
    }

    /// Every item of the table.
    func all() throws -> [FluentItem] {
        try run { try await FluentItem.query(on: $0).all() }
    }

    /// Saves `items` in one transaction, an `update` each (Fluent writes the changed fields).
    func update(_ items: [FluentItem]) throws {
        try run { database in
            try await database.transaction { transaction in
                for item in items { try await item.update(on: transaction) }
            }
        }
    }
}

extension Contender {
    /// Fluent's batch `create` of `rows` items in one transaction, on a database `prepare` empties;
    /// its check is `check(sum of the new ids)`.
    static func fluentInsert(
        rows: Int, _ prepare: @escaping () throws -> FluentDatabase, check: @escaping (Int) -> Int
    ) -> Contender {
        .prepared("Fluent batch create") {
            let fluent = try prepare()
            return { check(try fluent.insert(rows: rows)) }
        }
    }

    /// Fluent's fetch of the whole table; its check is the sum of every item's columns.
    static func fluentFetch(_ fluent: @escaping () throws -> FluentDatabase) -> Contender {
        .preparedChecked("Fluent query.all") {
            let fluent = try fluent()
            return {
                let items = try fluent.all()
                return { items.reduce(0) { $0 + $1.sum } }
            }
        }
    }

    /// Fluent's update of every fetched item (fetched before the clock), the property at
    /// `column` incremented; its check is `check(items)`.
    static func fluentUpdate(
        _ fluent: @escaping () throws -> FluentDatabase, column: ReferenceWritableKeyPath<FluentItem, Int>,
        check: @escaping ([FluentItem]) -> Int
    ) -> Contender {
        .prepared("Fluent update of fetched models") {
            let fluent = try fluent()
            let items = try fluent.all()
            return {
                for item in items { item[keyPath: column] += 1 }
                try fluent.update(items)
                return check(items)
            }
        }
    }
}

/// The object each ``FluentHolder`` refers to (a table of Fluent's own schema).
final class FluentTarget: Model, @unchecked Sendable {
    static let schema = "FluentRefTarget"
    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "n") var n: Int

    init() {}
    init(n: Int) { self.n = n }
}

/// An object with one reference, as Fluent models it: a `@Parent` column.
final class FluentHolder: Model, @unchecked Sendable {
    static let schema = "FluentRefHolder"
    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "n") var n: Int
    @Parent(key: "target_id") var target: FluentTarget

    init() {}
    init(n: Int, target: Int) {
        self.n = n
        $target.id = target
    }
}

extension FluentDatabase {
    /// Creates the reference workload's two tables if they are missing, and empties them.
    func emptyReferenceTables() throws {
        try run { database in
            try await database.schema(FluentTarget.schema).field("id", .int, .identifier(auto: true))
                .field("n", .int, .required).ignoreExisting().create()
            try await database.schema(FluentHolder.schema).field("id", .int, .identifier(auto: true))
                .field("n", .int, .required)
                .field("target_id", .int, .required, .references(FluentTarget.schema, "id"))
                .ignoreExisting().create()
            try await FluentHolder.query(on: database).delete()
            try await FluentTarget.query(on: database).delete()
        }
    }

    /// Saves `count` holders, each referring to a new target, in one transaction: each target
    /// created alone (a batch `create` does not give the models their ids, which the holders
    /// need), then the holders in batches. Returns the sum of the holders' numbers.
    func saveHolders(_ count: Int) throws -> Int {
        let chunk = rowsPerCreate
        return try run { database in
            try await database.transaction { transaction in
                let targets = (0..<count).map { FluentTarget(n: $0) }
                for target in targets { try await target.create(on: transaction) }
                let holders = targets.map { FluentHolder(n: $0.n, target: $0.id!) }
                for first in stride(from: 0, to: count, by: chunk) {
                    try await holders[first..<min(first + chunk, count)].create(on: transaction)
                }
                return holders.reduce(0) { $0 + $1.n }
            }
        }
    }
}
