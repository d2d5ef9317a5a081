import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import NIOPosix
import Testing

/// What only a server backend meets: connection failures, credentials, event loops.
@Suite("PostgreSQL connections: typed errors naming host and database")
struct PostgresConnectionTests {
    @Test("a port with no server, a wrong password and a missing database are `unavailable` errors naming them")
    func unreachable() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        _ = try server.makeDatabase()

        let refused = try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: "postgres://dbb@127.0.0.1:1/nowhere?sslmode=disable")
            configuration.connectTimeout = .seconds(3)
            _ = try DBBManager(postgres: configuration)
        }
        #expect(refused.kind == .unavailable)
        #expect(refused.description.contains("127.0.0.1:1") && refused.description.contains("nowhere"))

        let badPassword = try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: server.url(database: "postgres", password: "wrong"))
            configuration.connectTimeout = .seconds(5)
            _ = try DBBManager(postgres: configuration)
        }
        #expect(badPassword.kind == .unavailable)
        #expect(badPassword.serverError?.sqlState == "28P01")

        let missing = try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: server.url(database: "no_such_db"))
            configuration.connectTimeout = .seconds(5)
            _ = try DBBManager(postgres: configuration)
        }
        #expect(missing.kind == .unavailable)
        #expect(missing.serverError?.sqlState == "3D000")
        #expect(missing.description.contains("no_such_db"))
    }

    @Test("a malformed URL names what is wrong, without the password")
    func malformedURL() {
        for url in ["mysql://u@h/db", "postgres://u:secret@/db", "postgres://u:secret@h", "postgres://u@h/db?sslmode=maybe"] {
            let error = #expect(throws: DBBError.self) { _ = try DBBPostgresConfiguration(url: url) }
            #expect(error?.kind == .invalidOption)
            #expect(error?.description.contains("secret") == false)
        }
    }

    @Test("a synchronous call on an event loop is refused, not deadlocked")
    func eventLoopRefused() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let manager = try DBBManager(postgres: server.makeDatabase())
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let outcome = try loop.submit { Result { try manager.count(of: "Member") } }.wait()
        #expect(throws: DBBError.self) { try outcome.get() }
    }
}
