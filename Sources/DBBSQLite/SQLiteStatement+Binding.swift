import CSQLite
import Foundation

// MARK: - Binding by index

extension SQLiteStatement {
    /// Binds `NULL` to the parameter at `index` (from 1).
    public func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(try liveHandle(), Int32(truncatingIfNeeded: index)))
    }

    /// Binds an integer to the parameter at `index` (from 1).
    @inlinable
    public func bind(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(try liveHandle(), Int32(truncatingIfNeeded: index), value))
    }

    /// Binds an integer to the parameter at `index` (from 1).
    @inlinable
    public func bind(_ value: Int, at index: Int) throws {
        try bind(Int64(value), at: index)
    }

    /// Binds a double to the parameter at `index` (from 1). SQLite stores NaN as `NULL`.
    @inlinable
    public func bind(_ value: Double, at index: Int) throws {
        try check(sqlite3_bind_double(try liveHandle(), Int32(truncatingIfNeeded: index), value))
    }

    /// Binds a boolean, as the integer 1 or 0, to the parameter at `index` (from 1).
    @inlinable
    public func bind(_ value: Bool, at index: Int) throws {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    /// Binds text to the parameter at `index` (from 1). SQLite copies the bytes
    /// (`SQLITE_TRANSIENT`), so the string need not outlive the call; `""` binds empty text, not `NULL`.
    public func bind(_ value: String, at index: Int) throws {
        var value = value
        try value.withUTF8 { try bindText(utf8: $0, at: index) }
    }

    /// Binds text given as its bytes to the parameter at `index` (from 1), exactly as they are:
    /// SQLite stores bytes that are not valid UTF-8 unchanged, as the sqlite3 shell's `.import`
    /// does. SQLite copies them; no bytes bind empty text, not `NULL`.
    public func bindText(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        let handle = try liveHandle()
        let column = Int32(truncatingIfNeeded: index)
        // A nil base address (possible when empty) would bind NULL: give SQLite a real pointer.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            try check(sqlite3_bind_text(handle, column, "", 0, nil))
            return
        }
        let code = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text64(
                handle, column, $0, sqlite3_uint64(bytes.count), dbb_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try check(code)
    }

    /// Binds bytes to the parameter at `index` (from 1). SQLite copies them (`SQLITE_TRANSIENT`);
    /// empty `Data` binds an empty blob, not `NULL`.
    public func bind(_ value: Data, at index: Int) throws {
        let handle = try liveHandle()
        let column = Int32(truncatingIfNeeded: index)
        let code = value.withUnsafeBytes { bytes -> Int32 in
            // sqlite3_bind_blob with a NULL pointer binds NULL: an empty blob needs zeroblob(0).
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(handle, column, 0)
            }
            return sqlite3_bind_blob64(
                handle, column, base, sqlite3_uint64(bytes.count), dbb_sqlite_transient())
        }
        try check(code)
    }

    /// Binds `values` to the parameters from `first` (from 1) on, one after the other: one
    /// call for a row, the values read where they lie (no copy of text or bytes).
    public func bind(contentsOf values: UnsafeBufferPointer<SQLiteValue>, from first: Int) throws {
        let handle = try liveHandle()
        for offset in values.indices {
            let parameter = Int32(truncatingIfNeeded: first + offset)
            switch values[offset] {
            case .integer(let value): try check(sqlite3_bind_int64(handle, parameter, value))
            case .real(let value): try check(sqlite3_bind_double(handle, parameter, value))
            case .null: try check(sqlite3_bind_null(handle, parameter))
            case .text(let value): try bind(value, at: first + offset)
            case .blob(let value): try bind(value, at: first + offset)
            }
        }
    }

    /// Binds any ``SQLiteValue`` to the parameter at `index` (from 1).
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let value): try bind(value, at: index)
        case .real(let value): try bind(value, at: index)
        case .text(let value): try bind(value, at: index)
        case .blob(let value): try bind(value, at: index)
        }
    }

    /// Binds any convertible value (including optionals: `nil` binds `NULL`) at `index` (from 1).
    public func bind<T: SQLiteValueConvertible>(_ value: T, at index: Int) throws {
        try bind(value.sqliteValue, at: index)
    }

    // MARK: - Binding by name

    /// The index (from 1) of the parameter named `name`, which may be written with its prefix
    /// (`:id`, `@id`, `$id`) or without (`id`).
    /// - Throws: ``SQLiteResultCode/range`` naming the parameter when the statement has none so named.
    public func parameterIndex(named name: String) throws -> Int {
        let handle = try liveHandle()
        let candidates =
            name.first.map { ":@$".contains($0) } == true
            ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return Int(index) }
        }
        throw SQLiteError(
            code: .range, message: "no parameter named \(name) in the statement", sql: sql)
    }

    /// Binds `value` to the parameter named `name` (`:id`, `@id`, `$id`, or `id`).
    public func bind<T: SQLiteValueConvertible>(_ value: T, named name: String) throws {
        try bind(value.sqliteValue, at: try parameterIndex(named: name))
    }

    // MARK: - Binding lists

    /// Binds `values` to parameters 1, 2, 3…
    /// - Throws: ``SQLiteResultCode/range`` when the count differs from ``parameterCount``.
    public func bind(_ values: [SQLiteValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError(
                code: .range,
                message: "the statement has \(parameterCount) parameter(s) but \(values.count) argument(s) were given",
                sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds each value to the parameter of its name (`:id`, `@id`, `$id`, or `id`).
    public func bind(_ values: [String: SQLiteValue]) throws {
        for (name, value) in values {
            try bind(value, at: try parameterIndex(named: name))
        }
    }
}
