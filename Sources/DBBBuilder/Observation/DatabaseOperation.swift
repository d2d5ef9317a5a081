/// What a manager call does, for its metrics and its span: the operation's name, and the kind of
/// statement it counts as (a save counts its rows as inserts and updates instead).
enum DatabaseOperation: Int, CaseIterable, Sendable {
    case save, fetch, delete, raw, schema, update

    /// The `operation` dimension of `dbb_operation_duration_seconds`.
    var label: String {
        switch self {
        case .save: "save"
        case .fetch: "fetch"
        case .delete: "delete"
        case .raw: "raw"
        case .schema: "schema"
        case .update: "update"
        }
    }

    /// The `db.operation` of the span (a raw statement's is its first word, see
    /// ``DatabaseObserver``).
    var spanOperation: String {
        switch self {
        case .save: "save"
        case .fetch: "SELECT"
        case .delete: "DELETE"
        case .raw: "raw"
        case .schema: "register"
        case .update: "UPDATE"
        }
    }

    /// The kind of statement the call counts as in `dbb_statements_total` (a save: see
    /// ``StatementTally``).
    var statementKind: StatementKind {
        switch self {
        case .save: .update
        case .fetch: .select
        case .delete: .delete
        case .raw: .raw
        case .schema: .schema
        case .update: .update
        }
    }
}

/// The `kind` dimension of `dbb_statements_total`.
enum StatementKind: Int, CaseIterable, Sendable {
    case insert, update, delete, select, raw, schema

    var label: String {
        switch self {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        case .select: "select"
        case .raw: "raw"
        case .schema: "schema"
        }
    }
}

/// The `outcome` dimension of `dbb_statements_total`: `ok`, or how the failure classifies
/// (``DBBError``'s `isConstraintViolation`, `isTimeout`, `isConnectionLost`, its kind).
enum StatementOutcome: Int, CaseIterable, Sendable {
    case ok, constraint, conflict, notFound, timeout, connectionLost, other

    var label: String {
        switch self {
        case .ok: "ok"
        case .constraint: "constraint"
        case .conflict: "conflict"
        case .notFound: "notFound"
        case .timeout: "timeout"
        case .connectionLost: "connectionLost"
        case .other: "other"
        }
    }

    /// The outcome of a call that threw `error`.
    init(_ error: any Error) {
        guard let error = error as? DBBError else {
            self = .other
            return
        }
        if error.kind == .rowChanged {
            self = .conflict
        } else if error.isConstraintViolation {
            self = .constraint
        } else if error.isTimeout {
            self = .timeout
        } else if error.isConnectionLost {
            self = .connectionLost
        } else if error.kind == .rowNotFound {
            self = .notFound
        } else {
            self = .other
        }
    }
}

/// The rows one save wrote, counted by the save session (an add per row, observed or not), and
/// the kind of the last: what a failed save counts as.
struct StatementTally {
    var inserted = 0
    var updated = 0
    var lastWasInsert = false
}
