import DBBTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// `--otel-endpoint`, on the built `dbb-service` binary in a process of its own (the tracer is
/// bootstrapped once a process, so not in this one): its spans reach a small OTLP/HTTP collector
/// that this test runs on a loopback port.
@Suite("--otel-endpoint: the database's spans exported over OTLP/HTTP")
struct OTLPExportTests {
    @Test("after a POST and SIGTERM, the collector has the save's span, without the saved values")
    func spansReachTheCollector() async throws {
        let binary = try ServiceBinary.url()
        let received = ReceivedExports()
        let router = Router()
        router.post("v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            await received.add(contentType: request.headers[.contentType], body: Array(buffer: body))
            // An empty ExportTraceServiceResponse: every span accepted.
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
        }
        let collector = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await collector.test(.live) { client in
            let collectorPort = try #require(client.port)
            let directory = try TemporaryDirectory("dbb-service-otel")
            let port = try TestPostgresServer.freePort()
            let service = try ServiceProcess(
                binary: binary, directory: directory,
                arguments: [
                    "--database", directory.path("service.sqlite"), "--port", "\(port)", "--log-level", "warning",
                    "--otel-endpoint", "http://127.0.0.1:\(collectorPort)",
                ])
            let secret = "Secret-\(UUID().uuidString)"
            do {
                try await service.waitUntilListening(port: port)
                let reply = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                    try await client.post(
                        "/people", headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: #"{"firstName":"Ada","lastName":"\#(secret)"}"#))
                }
                #expect(reply.status == .created)
            } catch {
                service.terminate()
                _ = await service.exit()
                throw error
            }
            service.terminate()
            let status = await service.exit()
            #expect(status == 0, "dbb-service exited with \(status): \(service.errors())")

            // The batch is sent on the graceful shutdown at the latest, before the process ends.
            let exports = await received.exports
            #expect(!exports.isEmpty, "no export reached the collector: \(service.errors())")
            for export in exports { #expect(export.contentType == "application/x-protobuf") }
            let bytes = exports.flatMap(\.body)
            for expected in ["save Person", "db.system", "sqlite", "db.collection.name", "Person", "dbb-service"] {
                #expect(bytes.contains(Array(expected.utf8)), "no '\(expected)' in the exported spans")
            }
            #expect(!bytes.contains(Array(secret.utf8)), "a saved value reached the exported spans")
        }
    }

    @Test(
        "a malformed --otel-endpoint fails at startup, naming the flag",
        arguments: ["127.0.0.1:4318", "ftp://x", "http://"])
    func malformedEndpoint(_ endpoint: String) async throws {
        let directory = try TemporaryDirectory("dbb-service-otel")
        let service = try ServiceProcess(
            binary: try ServiceBinary.url(), directory: directory,
            arguments: ["--database", directory.path("service.sqlite"), "--otel-endpoint", endpoint])
        let status = await service.exit()
        #expect(status != 0)
        let errors = service.errors()
        #expect(errors.contains("--otel-endpoint"), "\(errors)")
        #expect(errors.contains(endpoint), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("service.sqlite")), "the database was opened")
    }
}

/// What the collector was sent to /v1/traces.
private actor ReceivedExports {
    struct Export {
        let contentType: String?
        let body: [UInt8]
    }
    private(set) var exports: [Export] = []

    func add(contentType: String?, body: [UInt8]) { exports.append(Export(contentType: contentType, body: body)) }
}

/// The `dbb-service` executable built with the tests: beside the test bundle, in the package's
/// bin folder (`DBB_SERVICE_BIN` names another folder).
enum ServiceBinary {
    static func url() throws -> URL {
        let folder =
            ProcessInfo.processInfo.environment["DBB_SERVICE_BIN"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let binary = folder.appendingPathComponent("dbb-service")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServiceProcess.Failure(
                description: "no dbb-service in \(folder.path): run `swift build --build-tests` first")
        }
        return binary
    }
}

/// `dbb-service` running as a child process, its output in files of `directory`, no `OTEL_…`
/// variable inherited.
final class ServiceProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process: Process
    private let errorFile: URL
    private let ended: Task<Int32, Never>

    init(binary: URL, directory: TemporaryDirectory, arguments: [String]) throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OTEL_") }
        let output = directory.url.appendingPathComponent("service.out")
        errorFile = directory.url.appendingPathComponent("service.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        let (statuses, continuation) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
        try process.run()
        self.process = process
        ended = Task {
            for await status in statuses { return status }
            return -1
        }
    }

    /// SIGTERM: a graceful shutdown.
    func terminate() { if process.isRunning { kill(process.processIdentifier, SIGTERM) } }

    /// The exit status, once the process has ended.
    func exit() async -> Int32 { await ended.value }

    /// What it wrote to standard error.
    func errors() -> String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Waits until `port` accepts a connection (at most a minute; the process ending first fails).
    func waitUntilListening(port: Int) async throws {
        for _ in 0..<600 {
            guard process.isRunning else {
                throw Failure(description: "dbb-service ended before listening: \(errors())")
            }
            do {
                let status = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                    try await client.get("/health").status
                }
                if status == .ok { return }
            } catch {}
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "dbb-service did not listen on \(port) within a minute: \(errors())")
    }
}
