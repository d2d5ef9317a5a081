import DBBBuilder
import Foundation
import HTTPTypes
import Hummingbird

/// The endpoints of a ``Resource``:
///
/// | method and path | does | answers |
/// |---|---|---|
/// | `POST /people` | creates | 201, `Location`, `ETag` |
/// | `GET /people?lastName=…&sort=-age&limit=20&offset=40` | lists a page | 200 `{items, limit, offset, nextOffset}` |
/// | `GET /people/7` | reads | 200, `ETag` |
/// | `PUT /people/7` (`If-Match: <ETag>` optional) | replaces | 200, new `ETag`; 412 when stale |
/// | `DELETE /people/7` (`If-Match` optional) | deletes | 204; 412 when stale |
struct ResourceRoutes<R: Resource>: Sendable {
    let manager: DBBManager
    let bodyLimit: Int

    func add(to router: Router<BasicRequestContext>) {
        let group = router.group(RouterPath(R.path))
        group.post { request, _ in try await create(request) }
        group.get { request, _ in try await list(request) }
        group.get(":id") { _, context in try await show(id(context)) }
        group.put(":id") { request, context in try await replace(id(context), request) }
        group.delete(":id") { request, context in try await delete(id(context), request) }
    }

    private func id(_ context: BasicRequestContext) throws -> Int64 {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0 else {
            throw APIError.badRequest("id", "'\(text)' is not a \(R.name) id (a positive whole number)")
        }
        return id
    }

    private func create(_ request: Request) async throws -> Response {
        let body = try await JSONRequest.decode(R.Body.self, from: request, limit: bodyLimit)
        let model = R.Model(dbManager: manager)
        try await R.apply(body, to: model, manager: manager)
        try await storing { try await model.save() }
        return try respond(.created, model, extra: [.location: "/\(R.path)/\(model.id)"])
    }

    private func show(_ id: Int64) async throws -> Response {
        guard let model = try await R.Model.instance(id: id, manager: manager) else {
            throw APIError.notFound(R.name, id)
        }
        return try respond(.ok, model)
    }

    /// A full replace. With `If-Match`, it lands only if the row is still at that ETag: the
    /// check is in the UPDATE (``DBBTableObject/save(ifModifiedTimeIs:)``), so two instances of
    /// the service racing on one row cannot both win.
    private func replace(_ id: Int64, _ request: Request) async throws -> Response {
        let expected = try ETag.parse(request.headers[.ifMatch])
        let body = try await JSONRequest.decode(R.Body.self, from: request, limit: bodyLimit)
        guard let model = try await R.Model.instance(id: id, manager: manager) else {
            throw APIError.notFound(R.name, id)
        }
        try await R.apply(body, to: model, manager: manager)
        try await storing {
            if let expected { try await model.save(ifModifiedTimeIs: expected) } else { try await model.save() }
        }
        return try respond(.ok, model)
    }

    /// With `If-Match`, the row goes only if it is still at that ETag (in the DELETE itself).
    private func delete(_ id: Int64, _ request: Request) async throws -> Response {
        let expected = try ETag.parse(request.headers[.ifMatch])
        guard let model = try await R.Model.instance(id: id, manager: manager, sparsePopulation: true) else {
            throw APIError.notFound(R.name, id)
        }
        try await storing {
            if let expected { try await model.delete(ifModifiedTimeIs: expected) } else { try await model.delete() }
        }
        return Response(status: .noContent)
    }

    private func list(_ request: Request) async throws -> Response {
        let page = try ListQuery(request.uri.queryParameters, filters: R.filters, sortable: R.sortable)
        let models = try await storing { try await R.Model.instances(matching: page.options, manager: manager) }
        return try JSONResponse.make(
            .ok,
            Page(
                items: models.map(R.represent), limit: page.limit, offset: page.offset,
                nextOffset: models.count == page.limit ? page.offset + page.limit : nil))
    }

    private func respond(_ status: HTTPResponse.Status, _ model: R.Model, extra: HTTPFields = [:]) throws -> Response {
        var headers = extra
        if let time = model.modifiedTime { headers[.eTag] = ETag.make(time) }
        return try JSONResponse.make(status, R.represent(model), headers: headers)
    }

    /// Runs a database operation, turning the refusals that are the client's doing into 4xx.
    private func storing<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as DBBError {
            throw APIError(error, resource: R.name) ?? error
        }
    }
}

/// A page of a list.
struct Page<Item: Encodable & Sendable>: Encodable, Sendable {
    let items: [Item]
    let limit: Int
    let offset: Int
    /// The `offset` of the next page; `null` on the last one.
    let nextOffset: Int?

    private enum CodingKeys: String, CodingKey { case items, limit, offset, nextOffset }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(limit, forKey: .limit)
        try container.encode(offset, forKey: .offset)
        try container.encode(nextOffset, forKey: .nextOffset)  // null, not left out
    }
}

/// A record's version for HTTP: its `modifiedTime` (seconds since 2001, exactly as stored).
enum ETag {
    static func make(_ time: Date) -> String { "\"\(time.timeIntervalSinceReferenceDate)\"" }

    /// The time an `If-Match` header names; `nil` without one. `*` is refused: it would not
    /// protect anything.
    static func parse(_ header: String?) throws -> Date? {
        guard let header else { return nil }
        var text = Substring(header.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.count >= 2, text.first == "\"", text.last == "\"", let seconds = Double(text.dropFirst().dropLast()),
            seconds.isFinite
        else {
            throw APIError.badRequest("If-Match", "expected one ETag as this service sent it, e.g. \"785576400.25\"")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }
}
