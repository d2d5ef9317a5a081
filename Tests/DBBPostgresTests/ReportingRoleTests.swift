#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// A book's author, for a reporting role's fetch through a reference.
final class ReportAuthor: DBBTableObject {
    var name = ""
    override class var databaseTableName: String { "Author" }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\ReportAuthor.name)], for: self)
    }
}

/// A book with a reference and an array, each in a join table of its own.
final class ReportBook: DBBTableObject {
    var title = ""
    var author: ReportAuthor?
    var tags: [String] = []
    override class var databaseTableName: String { "Book" }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "title": DBBPropertyPersistence(\ReportBook.title),
                "author": DBBPropertyPersistence(\ReportBook.author),
                "tags": DBBPropertyPersistence(\ReportBook.tags),
            ], for: self)
    }
}

/// The reporting role of Scaling Out with PostgreSQL ("Opening without changing anything"):
/// real roles of the test server, `pg_read_all_data`, `GRANT SELECT`, and none.
@Suite("A role that may only read: register, fetch, raw rows; permission denied named as such")
struct ReportingRoleTests {
    /// A database with two books (one by an author, with tags) written by the test server's
    /// owner; its URL and a manager that writes.
    private static func library() throws -> (server: TestPostgresServer, url: String, writer: DBBManager)? {
        guard let server = try TestPostgresServer.shared() else { return nil }
        let url = server.direct(try server.makeDatabase())
        let writer = try DBBManager(postgres: url)
        try writer.register([ReportBook.self])
        let author = ReportAuthor(dbManager: writer)
        author.name = "Ursula"
        let first = ReportBook(dbManager: writer)
        (first.title, first.author, first.tags) = ("The Dispossessed", author, ["novel", "anarchy"])
        let second = ReportBook(dbManager: writer)
        second.title = "Untagged"
        try ReportBook.save([first, second], manager: writer)
        return (server, url, writer)
    }

    /// A new login role made by `writer` (`CREATE ROLE name LOGIN PASSWORD … <grants>`), and
    /// the URL of `url`'s database as that role; the role is dropped when the test ends.
    private static func role(
        _ grants: String, on url: String, of server: TestPostgresServer, writer: DBBManager
    ) throws -> (name: String, url: String) {
        let name = "reporting_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        try writer.execute("CREATE ROLE \(name) LOGIN PASSWORD 'reporting-secret' \(grants)")
        let database = String(url.split(separator: "/").last!.prefix { $0 != "?" })
        return (name, "postgres://\(name):reporting-secret@127.0.0.1:\(server.port)/\(database)?sslmode=disable")
    }

    /// A read-only manager of `url` (a reporting tool's).
    private static func reporting(_ url: String) throws -> DBBManager {
        var configuration = try DBBPostgresConfiguration(url: url)
        configuration.readOnly = true
        return try DBBManager(postgres: configuration)
    }

    /// Drops `role` and what the grants gave it.
    private static func drop(_ role: String, _ writer: DBBManager) {
        try? writer.execute("DROP OWNED BY \(role)")
        try? writer.execute("DROP ROLE \(role)")
    }

    @Test(
        "pg_read_all_data or GRANT SELECT: register and fetch with references and arrays, raw rows with column names, saves refused before any SQL"
    )
    func readingRoles() throws {
        guard let (server, url, writer) = try Self.library() else { return }
        let tables = #""Book", "Author", "Book_author", "Book_tags""#
        for grants in ["IN ROLE pg_read_all_data", "GRANT SELECT ON \(tables)"] {
            let isGrant = grants.hasPrefix("GRANT")
            let role = try Self.role(isGrant ? "" : grants, on: url, of: server, writer: writer)
            defer { Self.drop(role.name, writer) }
            if isGrant { try writer.execute("GRANT SELECT ON \(tables) TO \(role.name)") }

            let reader = try Self.reporting(role.url)
            try reader.register([ReportBook.self])
            let books = try ReportBook.all(manager: reader).sorted { $0.title < $1.title }
            #expect(books.map(\.title) == ["The Dispossessed", "Untagged"], "\(grants)")
            #expect(books.first?.author?.name == "Ursula" && books.first?.tags == ["novel", "anarchy"], "\(grants)")
            #expect(try ReportAuthor.all(manager: reader).map(\.name) == ["Ursula"], "\(grants)")
            let rows = try reader.query(#"SELECT title AS w, current_user AS who FROM "Book" ORDER BY title"#)
            #expect(rows.first?.columnNames == ["w", "who"], "\(grants): \(rows)")
            #expect(
                rows.first?["w", as: String.self] == "The Dispossessed"
                    && rows.first?["who", as: String.self] == role.name)

            let sent = Locked<[String]>([])
            reader.trace { sql in sent.withLock { $0.append(sql) } }
            books[1].tags = ["changed"]
            let save = try #require(throws: DBBError.self) { try books[1].save() }
            #expect(save.kind == .readOnly && !save.isRetryable && save.table == "Book", "\(save)")
            let deleteAll = try #require(throws: DBBError.self) { try ReportBook.deleteAll(manager: reader) }
            #expect(deleteAll.kind == .readOnly, "\(deleteAll)")
            #expect(sent.withLock { $0 } == [], "no statement reached the server")
        }
        #expect(try ReportBook.all(manager: writer).flatMap(\.tags).sorted() == ["anarchy", "novel"])
    }

    @Test(
        "a role without SELECT on a table it needs: registration refused naming role, table and the GRANT, not that the table does not exist"
    )
    func permissionDenied() throws {
        guard let (server, url, writer) = try Self.library() else { return }
        let none = try Self.role("", on: url, of: server, writer: writer)
        defer { Self.drop(none.name, writer) }
        let partial = try Self.role("", on: url, of: server, writer: writer)
        defer { Self.drop(partial.name, writer) }
        // SELECT on the book's own tables, not on the join table of its tags.
        try writer.execute(#"GRANT SELECT ON "Book", "Author", "Book_author" TO "# + partial.name)

        // (Without grants, the first table checked is the book's or its author's.)
        for (role, tables) in [(none, ["Book", "Author"]), (partial, ["Book_tags"])] {
            let error = try #require(throws: DBBError.self) {
                try Self.reporting(role.url).register([ReportBook.self])
            }
            #expect(error.kind == .migrationRefused && !error.isRetryable, "\(error)")
            let table = tables.first { error.message.contains("permission denied for table \($0) ") }
            #expect(table != nil, "\(error)")
            #expect(
                error.message.contains("the role \(role.name) may not read")
                    && error.message.contains("GRANT SELECT ON \"\(table ?? "")\" TO \(role.name)")
                    && !error.message.contains("does not exist"), "\(error)")
        }
        // Raw SQL meets the server's refusal, which names the role too.
        let raw = try #require(throws: DBBError.self) {
            _ = try Self.reporting(none.url).query(#"SELECT * FROM "Book""#)
        }
        #expect(raw.serverError?.sqlState == "42501" && raw.message.contains("the role \(none.name)"), "\(raw)")
        // A manager that may write, opened as a role that may only read: registering tables that
        // are all there changes (and sends) nothing, and so succeeds; its first write meets the
        // server's refusal, and is told to open the manager read-only.
        let member = try Self.role("IN ROLE pg_read_all_data", on: url, of: server, writer: writer)
        defer { Self.drop(member.name, writer) }
        let unmarked = try DBBManager(postgres: member.url)
        try unmarked.register([ReportBook.self])
        let refused = try #require(throws: DBBError.self) { try ReportBook(dbManager: unmarked).save() }
        #expect(
            refused.serverError?.sqlState == "42501" && refused.message.contains("the role \(member.name)")
                && refused.message.contains("readOnly"), "\(refused)")
    }
}
#endif
