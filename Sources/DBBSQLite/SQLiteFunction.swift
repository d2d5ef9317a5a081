import CSQLite

/// An SQL function written in Swift: scalar (one result per call) or aggregate (one result
/// per group). Register it on a ``SQLiteConnection`` with ``SQLiteConnection/add(_:)-(SQLiteFunction)``, or
/// on any raw `sqlite3*` with ``register(on:)``.
///
/// ```swift
/// let halve = SQLiteFunction("halve", argumentCount: 1) { arguments in
///     .real(arguments.double(at: 0) / 2)
/// }
/// try connection.add(halve)
/// try connection.fetchValue("SELECT halve(5)", as: Double.self)   // 2.5
/// ```
///
/// A Swift error thrown by the function stops the statement with an ``SQLiteError`` whose
/// message is the error's whole description (an ``SQLiteError`` keeps its code and message).
///
/// See [Application-Defined SQL Functions](https://www.sqlite.org/appfunc.html).
public struct SQLiteFunction: Sendable {
    /// The SQL name of the function.
    public let name: String

    /// How many arguments it takes, or -1 for any number. SQLite refuses other counts when
    /// a statement is prepared.
    public let argumentCount: Int

    /// Whether the result depends only on the arguments, which lets SQLite use the function
    /// in indexes and factor repeated calls out. See
    /// [Deterministic SQL Functions](https://www.sqlite.org/deterministic.html).
    public let isDeterministic: Bool

    let kind: Kind

    enum Kind: Sendable {
        case scalar(@Sendable (SQLiteFunctionArguments) throws -> SQLiteValue)
        case aggregate(@Sendable () -> AggregateState)
    }

    /// A scalar function: `body` returns the result of one call.
    public init(
        _ name: String, argumentCount: Int, deterministic: Bool = true,
        _ body: @escaping @Sendable (SQLiteFunctionArguments) throws -> SQLiteValue
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = deterministic
        self.kind = .scalar(body)
    }

    /// An aggregate function: each group gets a new `A()`, which receives ``SQLiteAggregate/step(_:)``
    /// for every row and gives the group's ``SQLiteAggregate/result()``.
    ///
    /// ```swift
    /// struct Product: SQLiteAggregate {
    ///     var value = 1.0
    ///     mutating func step(_ arguments: SQLiteFunctionArguments) { value *= arguments.double(at: 0) }
    ///     func result() -> SQLiteValue { .real(value) }
    /// }
    /// try connection.add(.aggregate("product", argumentCount: 1, Product.self))
    /// ```
    public static func aggregate<A: SQLiteAggregate>(
        _ name: String, argumentCount: Int, deterministic: Bool = true, _ type: A.Type
    ) -> SQLiteFunction {
        SQLiteFunction(
            name: name, argumentCount: argumentCount, deterministic: deterministic,
            kind: .aggregate { TypedAggregateState<A>() })
    }

    private init(name: String, argumentCount: Int, deterministic: Bool, kind: Kind) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = deterministic
        self.kind = kind
    }

    /// Installs the function on a raw `sqlite3*` handle, e.g. one opened by another SQLite
    /// library. It stays until the handle closes or the function is replaced.
    /// - Throws: ``SQLiteError`` when SQLite refuses (a bad name or argument count).
    public func register(on db: OpaquePointer) throws {
        let flags = SQLITE_UTF8 | (isDeterministic ? SQLITE_DETERMINISTIC : 0)
        let box = Unmanaged.passRetained(FunctionBox(kind)).toOpaque()
        let code: Int32
        switch kind {
        case .scalar:
            code = sqlite3_create_function_v2(
                db, name, Int32(argumentCount), flags, box, scalarCallback, nil, nil, releaseCallback)
        case .aggregate:
            code = sqlite3_create_function_v2(
                db, name, Int32(argumentCount), flags, box, nil, aggregateStepCallback,
                aggregateFinalCallback, releaseCallback)
        }
        // On failure SQLite has already called releaseCallback, which balanced passRetained.
        guard code == SQLITE_OK else {
            throw SQLiteError.from(db, resultCode: code, sql: nil)
        }
    }
}

/// The state of one group of an aggregate function.
///
/// SQLite creates one per group (`init()`), calls ``step(_:)`` once per row, then
/// ``result()`` once. A group with no rows gets a fresh value's ``result()``.
public protocol SQLiteAggregate: SendableMetatype {
    /// A new, empty group.
    init()
    /// Adds one row's arguments to the group.
    mutating func step(_ arguments: SQLiteFunctionArguments) throws
    /// The group's result.
    func result() throws -> SQLiteValue
}

extension SQLiteConnection {
    /// Installs `function` on this connection (replacing one of the same name and argument count).
    public func add(_ function: SQLiteFunction) throws {
        try function.register(on: liveHandle())
    }

    /// Removes the function named `name` with `argumentCount` arguments.
    public func removeFunction(named name: String, argumentCount: Int) throws {
        let db = try liveHandle()
        let code = sqlite3_create_function_v2(
            db, name, Int32(argumentCount), SQLITE_UTF8, nil, nil, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError.from(db, resultCode: code) }
    }
}

// MARK: - C callbacks

/// What SQLite keeps as the function's user data.
private final class FunctionBox {
    let kind: SQLiteFunction.Kind
    init(_ kind: SQLiteFunction.Kind) { self.kind = kind }
}

/// The state of one group, erased to a class so the C callbacks need not be generic.
class AggregateState {
    func step(_ arguments: SQLiteFunctionArguments) throws {}
    func result() throws -> SQLiteValue { .null }
}

private final class TypedAggregateState<A: SQLiteAggregate>: AggregateState {
    var aggregate = A()
    override func step(_ arguments: SQLiteFunctionArguments) throws { try aggregate.step(arguments) }
    override func result() throws -> SQLiteValue { try aggregate.result() }
}

private func functionBox(_ context: OpaquePointer?) -> FunctionBox {
    Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
}

private let releaseCallback: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
    if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
}

private let scalarCallback: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, argc, argv in
    guard case .scalar(let body) = functionBox(context).kind else { return }
    do {
        setResult(try body(SQLiteFunctionArguments(count: argc, argv: argv)), on: context)
    } catch {
        setError(error, on: context)
    }
}

/// The slot SQLite keeps per group, holding a retained `AggregateState` once the group starts.
private func aggregateSlot(_ context: OpaquePointer?, create: Bool) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
    let size = create ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0
    return sqlite3_aggregate_context(context, size)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
}

private let aggregateStepCallback:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, argc, argv in
        guard let slot = aggregateSlot(context, create: true) else {
            sqlite3_result_error_nomem(context)
            return
        }
        let state: AggregateState
        if let existing = slot.pointee {
            state = Unmanaged<AggregateState>.fromOpaque(existing).takeUnretainedValue()
        } else {
            guard case .aggregate(let make) = functionBox(context).kind else { return }
            state = make()
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
        }
        do {
            try state.step(SQLiteFunctionArguments(count: argc, argv: argv))
        } catch {
            setError(error, on: context)
        }
    }

private let aggregateFinalCallback: @convention(c) (OpaquePointer?) -> Void = { context in
    let state: AggregateState
    if let slot = aggregateSlot(context, create: false), let existing = slot.pointee {
        // Take back the retain of the step callback: the group ends here (SQLite calls the
        // final callback after an error too, so nothing leaks).
        state = Unmanaged<AggregateState>.fromOpaque(existing).takeRetainedValue()
        slot.pointee = nil
    } else {
        guard case .aggregate(let make) = functionBox(context).kind else { return }
        state = make()  // no row in this group
    }
    do {
        setResult(try state.result(), on: context)
    } catch {
        setError(error, on: context)
    }
}

// MARK: - Results

private func setResult(_ value: SQLiteValue, on context: OpaquePointer?) {
    switch value {
    case .null:
        sqlite3_result_null(context)
    case .integer(let value):
        sqlite3_result_int64(context, value)
    case .real(let value):
        sqlite3_result_double(context, value)
    case .text(var value):
        value.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                sqlite3_result_text(context, "", 0, nil)
                return
            }
            base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_result_text64(
                    context, $0, sqlite3_uint64(utf8.count), dbb_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    case .blob(let value):
        value.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                sqlite3_result_zeroblob(context, 0)
                return
            }
            sqlite3_result_blob64(context, base, sqlite3_uint64(bytes.count), dbb_sqlite_transient())
        }
    }
}

private func setError(_ error: any Error, on context: OpaquePointer?) {
    let message: String
    var code = SQLITE_ERROR
    if let error = error as? SQLiteError {
        message = error.message
        code = error.extendedCode.rawValue
    } else {
        message = String(describing: error)
    }
    message.withCString { sqlite3_result_error(context, $0, -1) }
    if code != SQLITE_ERROR { sqlite3_result_error_code(context, code) }
}
