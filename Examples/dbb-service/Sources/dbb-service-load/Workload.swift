import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The mixed workload: `connections` workers, each sending one request after another to the
/// instances in turn; a request an instance cannot answer (it was killed) goes to the next.
final class Workload: Sendable {
    let prefix: String
    private let deployment: Deployment
    private let client: HTTPClient
    private let people: [Int64]

    init(deployment: Deployment, connections: Int) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        configuration.timeout = .init(connect: .seconds(2), read: .seconds(10))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.deployment = deployment
        prefix = "load-\(UInt32.random(in: 0...UInt32.max))-"
        var people: [Int64] = []
        for index in 0..<200 {
            let reply = try await Self.send(
                client, port: deployment.ports[0], .POST, "/people",
                #"{"firstName": "P\#(index)", "lastName": "L\#(index % 37)", "age": \#(index % 90)}"#)
            guard reply.status == 201, let id = Self.id(in: reply.body) else {
                throw LoadError("seeding people failed: \(reply.status) \(reply.body)")
            }
            people.append(id)
        }
        self.people = people
    }

    deinit { try? client.syncShutdown() }

    /// What goes wrong midway, and when (seconds into the run).
    enum Disruption {
        /// The second instance SIGKILLed, and restarted 2 s later.
        case killSecondInstance(at: Double)
        /// Every process of the primary's node SIGKILLed (the failover setup).
        case killPrimary(at: Double)
    }

    /// Runs the load for `seconds` on `connections` workers, with `disruption` midway.
    func run(seconds: Double, connections: Int, disruption: Disruption?) async throws -> LoadResult {
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        let stats = try await withThrowingTaskGroup(of: WorkerStats.self) { group in
            switch disruption {
            case .killSecondInstance(let at)?:
                group.addTask {
                    try await Task.sleep(until: start + .milliseconds(Int(at * 1000)))
                    self.deployment.kill(1)
                    try await Task.sleep(for: .seconds(2))
                    try await self.deployment.launch(1)
                    return WorkerStats()
                }
            case .killPrimary(let at)?:
                group.addTask {
                    try await Task.sleep(until: start + .milliseconds(Int(at * 1000)))
                    try self.deployment.killPrimary()
                    return WorkerStats()
                }
            case nil:
                break
            }
            for worker in 0..<connections {
                group.addTask { await self.work(worker, until: deadline) }
            }
            return try await group.reduce(into: WorkerStats()) { $0.merge($1) }
        }
        return LoadResult(stats: stats, seconds: (ContinuousClock.now - start) / .seconds(1))
    }

    /// One worker's loop: 40% reads, 15% list pages, 20% creates, 15% read-then-PUT, 10% reports.
    private func work(_ worker: Int, until deadline: ContinuousClock.Instant) async -> WorkerStats {
        var stats = WorkerStats()
        var generator = SystemRandomNumberGenerator()
        var next = worker
        var created = 0
        while ContinuousClock.now < deadline {
            next += 1
            let roll = Int.random(in: 0..<100, using: &generator)
            let person = people.randomElement(using: &generator)!
            switch roll {
            case 0..<40:
                _ = await request(&stats, first: next, .GET, "/people/\(person)")
            case 40..<55:
                _ = await request(
                    &stats, first: next, .GET, "/people?sort=lastName&limit=20&offset=\(Int.random(in: 0..<180))")
            case 55..<75:
                created += 1
                let name = "\(prefix)\(worker)-\(created)"
                let body = #"{"name": "\#(name)"}"#
                var failedOver = false
                let reply = await request(&stats, first: next, .POST, "/companies", body, failedOver: &failedOver)
                // 409 after a failover: the instance that died had committed it before answering.
                let acknowledged = reply?.status == 201 || (reply?.status == 409 && failedOver)
                if acknowledged { stats.acknowledged.insert(name) }
                if reply?.status == 503 && reply?.body.contains(#""outcome":"unknown""#) == true {
                    stats.unknown.insert(name)
                }
                stats.creates.append((.now, acknowledged))
            case 75..<90:
                guard let read = await request(&stats, first: next, .GET, "/people/\(person)"), let etag = read.etag
                else { continue }
                let body =
                    #"{"firstName": "U\#(worker)", "lastName": "L\#(person % 37)", "age": \#(Int.random(in: 0...90))}"#
                _ = await request(&stats, first: next, .PUT, "/people/\(person)", body, headers: [("If-Match", etag)])
            default:
                let locale = ["en_US", "de_DE", "ru_RU", "fr_FR"].randomElement(using: &generator)!
                _ = await request(
                    &stats, first: next, .GET, "/reports/weekly?locale=\(locale)&from=2010-12-13&to=2011-01-16")
            }
        }
        return stats
    }

    private func request(
        _ stats: inout WorkerStats, first: Int, _ method: HTTPMethod, _ path: String, _ body: String? = nil,
        headers: [(String, String)] = []
    ) async -> Reply? {
        var failedOver = false
        return await request(&stats, first: first, method, path, body, headers: headers, failedOver: &failedOver)
    }

    /// Sends to the instances in turn from `first`, until one answers; times each answered
    /// request. A 5xx, or no instance answering, is an error; a 412 a conflict.
    private func request(
        _ stats: inout WorkerStats, first: Int, _ method: HTTPMethod, _ path: String, _ body: String? = nil,
        headers: [(String, String)] = [], failedOver: inout Bool
    ) async -> Reply? {
        let ports = deployment.ports
        for attempt in 0..<(ports.count * 3) {
            let port = ports[(first + attempt) % ports.count]
            let began = ContinuousClock.now
            do {
                let reply = try await Self.send(client, port: port, method, path, body, headers: headers)
                let milliseconds = (ContinuousClock.now - began) / .milliseconds(1)
                stats.latencies.append(milliseconds)
                stats.latenciesByKind[Self.kind(method, path), default: []].append(milliseconds)
                if reply.status >= 500 {
                    stats.errors += 1
                    stats.failures["\(reply.status)", default: 0] += 1
                }
                if reply.status == 412 { stats.conflicts += 1 }
                return reply
            } catch {
                stats.failovers += 1
                failedOver = true
                if attempt >= ports.count - 1 { try? await Task.sleep(for: .milliseconds(200)) }
            }
        }
        stats.errors += 1
        stats.failures["no answer", default: 0] += 1
        return nil
    }

    /// The kind of a request, its path without ids and query: `GET /people/ID`.
    static func kind(_ method: HTTPMethod, _ path: String) -> String {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let words = route.split(separator: "/").map { $0.allSatisfy(\.isNumber) ? "ID" : String($0) }
        return "\(method.rawValue) /\(words.joined(separator: "/"))" + (path.contains("?") ? "?…" : "")
    }

    // MARK: - HTTP

    struct Reply {
        let status: Int
        let body: String
        let etag: String?
    }

    static func send(
        _ client: HTTPClient, port: Int, _ method: HTTPMethod, _ path: String, _ body: String? = nil,
        headers: [(String, String)] = [], timeout: TimeAmount = .seconds(10)
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 1 << 22)
        return Reply(
            status: Int(response.status.code), body: String(buffer: bytes), etag: response.headers.first(name: "ETag"))
    }

    static func id(in body: String) -> Int64? {
        struct Created: Decodable { let id: Int64 }
        return try? JSONDecoder().decode(Created.self, from: Data(body.utf8)).id
    }
}

/// Whether an instance answers `/health`.
enum Probe {
    static func healthy(port: Int) async -> Bool {
        (try? await Workload.send(HTTPClient.shared, port: port, .GET, "/health", timeout: .seconds(1)).status) == 200
    }
}
