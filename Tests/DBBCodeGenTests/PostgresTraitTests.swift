import DBBTestSupport
import Foundation
import Testing

/// `dbb-demo --postgres`, `dbb sql postgres://…` and `dbb-codegen --from-database postgres://…` in a build without the package trait
/// `Postgres` (the default): they stop before touching anything and say how to build them with
/// it. With the trait they try the server instead (here a port nothing listens on).
@Suite("PostgreSQL options with and without the package trait Postgres")
struct PostgresTraitTests {
    /// A URL no server answers: port 1 on loopback.
    static let unreachable = "postgres://nobody:secret@127.0.0.1:1/none"
    static let hint = "--traits Postgres"

    @Test("dbb-demo --postgres, and --copy-from a URL")
    func demo() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        let home = try TemporaryDirectory()
        let environment: [String: String?] = ["XDG_CACHE_HOME": home.url.path, "HOME": home.url.path]
        for arguments in [
            ["--postgres", Self.unreachable],
            ["--database", home.path("copy.sqlite"), "--copy-from", Self.unreachable],
        ] {
            let run = try ScriptFixture.run(demo, arguments, environment: environment)
            #expect(run.status != 0, "\(arguments): \(run.stdout)")
            #expect(!run.stderr.contains("secret"), "the password is never shown: \(run.stderr)")
            #if Postgres
            #expect(!run.stderr.contains(Self.hint), "\(run.stderr)")
            #else
            #expect(run.stderr.contains(Self.hint), "\(run.stderr)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: home.url.path).isEmpty,
                "nothing is created before the refusal")
            #endif
        }
    }

    @Test("dbb-codegen --from-database postgres://…: never a file, never the password shown")
    func codegen() throws {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let folder = try TemporaryDirectory()
        for url in [Self.unreachable, "postgres:/nobody:secret@127.0.0.1:1/none"] {
            let run = try ScriptFixture.run(
                codegen, ["--from-database", url, "--output-dir", folder.path("classes")], in: folder.url)
            #expect(run.stdout.isEmpty, "\(url): \(run.stdout)")
            Self.expectRefused(run, url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing was written")
    }

    @Test("dbb sql postgres://…, and URLs spelled otherwise: never a file, never the password shown")
    func sql() throws {
        let dbb = try #require(ScriptFixture.dbb)
        let folder = try TemporaryDirectory()
        for url in [
            Self.unreachable, "POSTGRESQL://nobody:secret@127.0.0.1:1/none", "postgres:/nobody:secret@127.0.0.1:1/none",
        ] {
            let run = try ScriptFixture.run(dbb, ["sql", url, "SELECT 1"], in: folder.url)
            Self.expectRefused(run, url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no file was created")
    }

    /// A tool refused `url`: a failure, the password never shown, and — without the trait
    /// `Postgres` only — the advice to build with it.
    static func expectRefused(_ run: (status: Int32, stdout: String, stderr: String), _ url: String) {
        #expect(run.status != 0, "\(url): \(run.stdout)")
        #expect(!run.stderr.contains("secret"), "the password is never shown: \(run.stderr)")
        #if Postgres
        #expect(!run.stderr.contains(Self.hint), "\(run.stderr)")
        #else
        #expect(run.stderr.contains(Self.hint), "\(run.stderr)")
        #endif
    }
}
