import CSQLite

// MARK: - Running SQL

extension SQLiteConnection {
    /// Runs one or more `;`-separated SQL statements, binding `arguments` to their `?`
    /// parameters in order across the statements.
    ///
    /// ```swift
    /// try connection.execute("UPDATE person SET name = ? WHERE id = ?", ["Zoë", 1])
    /// ```
    ///
    /// A single statement is taken from the statement cache.
    /// - Throws: ``SQLiteError`` naming the statement that failed, or ``SQLiteResultCode/range``
    ///   when there are more or fewer arguments than parameters. Statements before the failing
    ///   one have run: wrap the call in ``transaction(_:_:)`` to run all or none.
    public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        if case .one(let statement) = try cachedOrPrepared(sql) {
            try statement.bind(arguments)
            try statement.execute()
            return
        }
        var remaining = arguments[...]
        try forEachStatement(in: sql) { statement in
            let count = statement.parameterCount
            guard remaining.count >= count else {
                throw SQLiteError(
                    code: .range,
                    message: "\(arguments.count) argument(s) given, but the SQL has more parameters",
                    sql: statement.sql, path: filename)
            }
            try statement.bind(Array(remaining.prefix(count)))
            remaining = remaining.dropFirst(count)
            try statement.execute()
        }
        guard remaining.isEmpty else {
            throw SQLiteError(
                code: .range,
                message:
                    "\(arguments.count) argument(s) given, but the SQL has only \(arguments.count - remaining.count) parameter(s)",
                sql: sql, path: filename)
        }
    }

    /// Runs one or more SQL statements with named parameters (`:name`, `@name`, `$name`):
    /// each statement takes the values of the names it has.
    ///
    /// ```swift
    /// try connection.execute("INSERT INTO person (name) VALUES (:name)", named: ["name": "Zoë"])
    /// ```
    public func execute(_ sql: String, named arguments: [String: SQLiteValue]) throws {
        try forEachStatement(in: sql) { statement in
            try statement.bind(arguments.filter { (try? statement.parameterIndex(named: $0.key)) != nil })
            try statement.execute()
        }
    }

    // MARK: - Reading rows

    /// Runs a query and calls `body` with each row, without copying the rows anywhere.
    ///
    /// ```swift
    /// var total = 0.0
    /// try connection.forEachRow("SELECT price FROM item WHERE kind = ?", ["book"]) { row in
    ///     total += row.double(at: 0)
    /// }
    /// ```
    public func forEachRow(
        _ sql: String, _ arguments: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void
    ) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.forEachRow(body)
    }

    /// Runs a query and returns `transform` of each row.
    ///
    /// ```swift
    /// let people = try connection.fetchAll("SELECT id, name FROM person ORDER BY name") {
    ///     Person(id: $0.int64(at: 0), name: $0.string(at: 1) ?? "")
    /// }
    /// ```
    public func fetchAll<T>(
        _ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (SQLiteRow) throws -> T
    ) throws -> [T] {
        var results: [T] = []
        try forEachRow(sql, arguments) { results.append(try transform($0)) }
        return results
    }

    /// Runs a query and returns `transform` of its first row, or `nil` when it has none.
    public func fetchOne<T>(
        _ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (SQLiteRow) throws -> T
    ) throws -> T? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.whileRunning { try statement.step() ? transform(statement.row) : nil }
    }

    /// The first column of the first row converted to `T`, or `nil` when there is no row,
    /// the value is `NULL`, or it does not convert.
    ///
    /// ```swift
    /// let count = try connection.fetchValue("SELECT count(*) FROM person", as: Int.self)
    /// ```
    public func fetchValue<T: SQLiteValueConvertible>(
        _ sql: String, _ arguments: [SQLiteValue] = [], as type: T.Type = T.self
    ) throws -> T? {
        try fetchOne(sql, arguments) { $0.decode(T.self, at: 0) } ?? nil
    }

    // MARK: - Statement iteration

    /// Whether `sql` ends with a complete statement (`sqlite3_complete`): a script reader
    /// collects lines until this is true. See [sqlite3_complete](https://www.sqlite.org/c3ref/complete.html).
    public static func isComplete(_ sql: String) -> Bool {
        sqlite3_complete(sql) != 0
    }

    /// Prepares each statement of `sql` in turn and hands it to `body` (which may bind, step
    /// and read it), finalizing it afterwards. Spaces and comments between statements are skipped.
    ///
    /// ```swift
    /// try connection.forEachStatement(in: script) { statement in
    ///     try statement.forEachRow { row in print(row.values) }
    /// }
    /// ```
    public func forEachStatement(in sql: String, _ body: (SQLiteStatement) throws -> Void) throws {
        try forEachStatementWithOffset(in: sql) { statement, _ in try body(statement) }
    }

    /// ``forEachStatement(in:_:)`` that also hands over where each statement starts: the
    /// UTF-8 offset in `sql` of its first character after spaces. A statement that does not
    /// compile throws an ``SQLiteError`` whose ``SQLiteError/offset`` is the UTF-8 offset in
    /// `sql` of the token SQLite points at (`sqlite3_error_offset`), so a script reader can
    /// name the line.
    public func forEachStatementWithOffset(in sql: String, _ body: (SQLiteStatement, _ offset: Int) throws -> Void)
        throws
    {
        var text = sql
        try text.withUTF8 { try forEachStatement(inUTF8: $0, body) }
    }

    /// ``forEachStatementWithOffset(in:_:)`` over SQL given as bytes, which reach SQLite as they
    /// are: text literals that are not valid UTF-8 are stored unchanged, as the sqlite3 shell
    /// stores them. Offsets are byte offsets in `sql`.
    public func forEachStatement(
        inUTF8 sql: UnsafeBufferPointer<UInt8>, _ body: (SQLiteStatement, _ offset: Int) throws -> Void
    ) throws {
        let db = try liveHandle()
        guard let start = sql.baseAddress else { return }
        try start.withMemoryRebound(to: CChar.self, capacity: sql.count) { base in
            var offset = 0
            while offset < sql.count {
                var stmt: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v3(db, base + offset, Int32(clamping: sql.count - offset), 0, &stmt, &tail)
                let consumed = tail.map { $0 - (base + offset) } ?? (sql.count - offset)
                var first = offset
                while first < sql.count, Self.isSpace(sql[first]) { first += 1 }
                guard code == SQLITE_OK else {
                    let failing = String(decoding: UnsafeBufferPointer(rebasing: sql[offset...]), as: UTF8.self)
                    let error = SQLiteError.from(db, resultCode: code, sql: failing.trimmingSpaces())
                    let within = Int(sqlite3_error_offset(db))
                    logFailure(error)
                    throw error.at(within >= 0 ? min(offset + within, sql.count) : first)
                }
                offset += max(consumed, 1)
                guard let stmt else { continue }  // only spaces or comments
                let statementSQL = String(cString: sqlite3_sql(stmt))
                let statement = register(SQLiteStatement(handle: stmt, sql: statementSQL, connection: self))
                defer {
                    statement.finalize()
                    statementDidFinalize(ObjectIdentifier(statement))
                }
                try body(statement, first)
            }
        }
    }

    /// The bytes SQLite's tokenizer takes for spaces.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
