import DBBService
import DBBTestSupport
import Foundation
import Hummingbird
import Logging
import Testing
import Yams

/// `openapi.yaml` and the router agree: every route the router registers is an operation of the
/// document (same method, same path), and every operation of the document is a route. A route
/// added without documenting it fails here; so does an operation documented for a route that
/// went away.
@Suite("openapi.yaml describes exactly the router's routes")
struct OpenAPIDocumentTests {
    @Test("every route is documented, and every documented operation is a route")
    func routesMatchTheDocument() async throws {
        let document = try OpenAPIDocument.load()
        let routes = try await Self.routes()
        let documented = Set(document.operations.map(\.key))
        let undocumented = routes.subtracting(documented).sorted()
        #expect(undocumented.isEmpty, "routes missing from openapi.yaml: \(undocumented)")
        let optional = Set(document.operations.filter { $0.optIn }.map(\.key))
        let missing = documented.subtracting(routes).subtracting(optional).sorted()
        #expect(missing.isEmpty, "operations of openapi.yaml that are no route: \(missing)")
        // Not vacuous: the document was read, and the router has the routes everyone knows.
        #expect(
            routes.isSuperset(of: [
                "GET /health", "POST /people", "PUT /meetings/{id}", "GET /reports/weekly", "GET /reports/weekly.html",
            ]))
        #expect(documented.count >= routes.count)
    }

    @Test("every operation answers 200, 201 or 204 and the errors it can give, every $ref resolves")
    func operationsAreComplete() throws {
        let document = try OpenAPIDocument.load()
        for operation in document.operations {
            #expect(
                !operation.statuses.isDisjoint(with: ["200", "201", "204"]),
                "\(operation.key): no success response")
            #expect(operation.statuses.contains("500"), "\(operation.key): no 500 response")
            if operation.key.contains("{id}") {
                #expect(operation.statuses.isSuperset(of: ["400", "404"]), "\(operation.key): no 400 or 404")
            }
        }
        let unresolved = document.references.filter { document.resolve($0) == nil }
        #expect(unresolved.isEmpty, "$refs that name nothing: \(unresolved)")
        #expect(document.references.count > 50)
    }

    @Test("the routes of a router are read as METHOD /path/{parameter}, the document's form")
    func routeForm() throws {
        let router = Router()
        router.group("things").get(":id") { _, _ in "" }
        #expect(router.routes.map { "\($0.method.rawValue) \($0.path)" } == ["GET /things/{id}"])
    }

    /// The service's routes, as `METHOD /path/{parameter}`, read from the router itself.
    static func routes() async throws -> Set<String> {
        let directory = try TemporaryDirectory("dbb-service-openapi")
        var logger = Logger(label: "dbb-service-tests")
        logger.logLevel = .warning
        let manager = try await ServiceDatabase.sqlite(path: directory.path("service.sqlite")).open(logger: logger)
        var settings = ServiceSettings()
        settings.requestLogLevel = nil
        return Set(makeRouter(manager: manager, settings: settings).routes.map { "\($0.method.rawValue) \($0.path)" })
    }
}

/// `openapi.yaml`, parsed by Yams.
struct OpenAPIDocument {
    struct Operation {
        /// `GET /people/{id}`.
        let key: String
        /// The response status codes it documents.
        let statuses: Set<String>
        /// Marked `x-dbb-opt-in`: a route only when the service is started with it turned on.
        let optIn: Bool
    }

    let root: [String: Any]
    let operations: [Operation]
    /// Every `$ref` in the document.
    let references: [String]

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
    }

    static func load() throws -> OpenAPIDocument {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let root = try Yams.load(yaml: text) as? [String: Any], let paths = root["paths"] as? [String: Any] else {
            throw DocumentError(message: "openapi.yaml has no paths")
        }
        guard (root["openapi"] as? String)?.hasPrefix("3.") == true else {
            throw DocumentError(message: "openapi.yaml is not OpenAPI 3")
        }
        var operations: [Operation] = []
        for (path, item) in paths {
            guard let item = item as? [String: Any] else { throw DocumentError(message: "\(path) is not a mapping") }
            for (method, value) in item where methods.contains(method.lowercased()) {
                guard let operation = value as? [String: Any], let responses = operation["responses"] as? [String: Any]
                else { throw DocumentError(message: "\(method) \(path) has no responses") }
                operations.append(
                    Operation(
                        key: "\(method.uppercased()) \(path)", statuses: Set(responses.keys),
                        optIn: operation["x-dbb-opt-in"] as? Bool == true))
            }
        }
        return OpenAPIDocument(root: root, operations: operations, references: Self.references(in: root))
    }

    private static func references(in value: Any) -> [String] {
        switch value {
        case let mapping as [String: Any]:
            return mapping.flatMap { key, value in
                key == "$ref" ? [value as? String ?? "\(value)"] : references(in: value)
            }
        case let sequence as [Any]:
            return sequence.flatMap(references)
        default:
            return []
        }
    }

    /// What a local `$ref` (`#/components/schemas/Person`) names; `nil` for nothing.
    func resolve(_ reference: String) -> Any? {
        guard reference.hasPrefix("#/") else { return nil }
        return reference.dropFirst(2).split(separator: "/").reduce(root as Any?) { node, name in
            (node as? [String: Any])?[String(name)]
        }
    }

    struct DocumentError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
