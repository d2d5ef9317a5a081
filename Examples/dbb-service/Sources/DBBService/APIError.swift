import DBBBuilder
import Foundation
import HTTPTypes
import Hummingbird

/// A request the service refuses, as the client sees it: a 4xx status and a JSON body naming
/// what was wrong and, when one field is to blame, which one:
/// `{"error": "age: expected a whole number", "field": "age"}`.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let message: String
    /// The JSON field, query parameter or header to blame (`nil` for the request as a whole).
    public let field: String?
    /// For a write the database could not finish (503), what became of it: whether the client
    /// may simply send it again (``Outcome/notStored``) or must look first (``Outcome/unknown``).
    public let outcome: Outcome?

    /// What became of a write answered 503, as the body's `outcome` says it.
    public enum Outcome: String, Codable, Sendable {
        /// Nothing of the request was stored: send it again (after `Retry-After` seconds).
        case notStored = "not-stored"
        /// The database did not confirm the commit: the write may or may not be stored. Look
        /// for it before sending it again, or send it in a form that cannot apply twice.
        case unknown
    }

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil, outcome: Outcome? = nil) {
        self.status = status
        self.message = message
        self.field = field
        self.outcome = outcome
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        // A client that may simply repeat the request is told when: a failover takes seconds.
        let headers: HTTPFields = outcome == .notStored ? [.retryAfter: "1"] : [:]
        return try JSONResponse.make(status, Body(error: message, field: field, outcome: outcome), headers: headers)
    }

    /// The JSON body of an error response: `{"error": "…", "field": "age"}`, and for a 503
    /// `{"error": "…", "outcome": "unknown"}` (or `"not-stored"`).
    public struct Body: Codable, Sendable, Equatable {
        public let error: String
        public let field: String?
        public var outcome: Outcome? = nil
    }

    static func badRequest(_ field: String?, _ message: String) -> APIError {
        APIError(.badRequest, field.map { "\($0): \(message)" } ?? message, field: field)
    }

    static func notFound(_ what: String, _ id: Int64) -> APIError {
        APIError(.notFound, "\(what) \(id) does not exist", field: "id")
    }
}

extension APIError {
    /// What a refused database operation means to the client: a stale precondition (412), a
    /// row gone (404), a unique value taken (409), a value the database refused (422). Other
    /// failures (the database unreachable, a bug) are not the client's: `nil`, and the caller
    /// answers 500 or 503.
    init?(_ error: DBBError, resource: String) {
        let field = error.property
        if error.kind == .rowChanged {
            self.init(
                .preconditionFailed, "\(resource) \(error.rowID ?? 0) was changed since that ETag: fetch it again",
                field: "If-Match")
        } else if (error.kind == .rowNotFound && field != nil) || error.isForeignKeyViolation {
            // A record the body refers to was deleted while this request saved (a foreign key
            // on PostgreSQL, the library's check on SQLite).
            self.init(
                .unprocessableContent,
                "\(field ?? "a reference"): refers to a record deleted while this request was saved", field: field)
        } else if error.kind == .rowNotFound {
            self.init(.notFound, "\(resource) \(error.rowID ?? 0) does not exist (deleted meanwhile)", field: "id")
        } else if error.isUniqueViolation {
            self.init(.conflict, "\(field ?? "a value") is already taken by another \(resource)", field: field)
        } else if error.kind == .invalidValue {
            self.init(.unprocessableContent, "\(field.map { "\($0): " } ?? "")\(error.message)", field: field)
        } else {
            return nil
        }
    }
}
