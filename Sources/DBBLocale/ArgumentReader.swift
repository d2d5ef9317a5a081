import DBBSQLite

/// Reads and checks the arguments of one locale function, naming it and the argument in errors.
///
/// A `NULL` argument is an error, except the date of a `dbb_` function, which gives `NULL` (so
/// `GROUP BY dbb_week(optionalDate, 'en_US')` works over a column with NULLs); ESLocale's
/// functions refuse a `NULL` date, as ESLocale did.
struct ArgumentReader: Sendable {
    let function: String
    /// The argument names, in order, for messages.
    let names: [String]
    /// The index of the argument whose `NULL` makes the result `NULL`, if any.
    let nullGivesNull: Int?
    let locales = ArgumentMemo<LocaleInfo>()
    let patterns = ArgumentMemo<DatePattern>()

    init(function: String, names: [String]) {
        self.function = function
        self.names = names
        nullGivesNull = function.hasPrefix("dbb_") ? names.firstIndex(of: "date") : nil
    }

    func requireNonNull(_ arguments: SQLiteFunctionArguments) throws {
        for index in 0..<arguments.count where index != nullGivesNull && arguments.isNull(at: index) {
            throw error(at: index, "is NULL")
        }
    }

    /// The error for the argument at `index`: `dbb_week: argument 2 (locale) <problem>`.
    func error(at index: Int, _ problem: String) -> LocaleFunctionError {
        LocaleFunctionError(function: function, position: index + 1, argument: names[index], problem: problem)
    }

    func locale(_ arguments: SQLiteFunctionArguments, at index: Int) throws -> LocaleInfo {
        do {
            return try arguments.withUnsafeUTF8(at: index) { text throws(DBBLocaleError) in
                try locales.value(for: text) { (identifier: String) throws(DBBLocaleError) in
                    try LocaleRegistry.shared.info(for: identifier)
                }
            }
        } catch let error as DBBLocaleError {
            throw self.error(at: index, error.description)
        }
    }

    func pattern(_ arguments: SQLiteFunctionArguments, at index: Int) -> DatePattern {
        compiled(arguments, at: index, in: patterns, DatePattern.init)
    }

    /// What `make` makes of the text argument at `index`, made once while the text stays the same.
    func compiled<T>(
        _ arguments: SQLiteFunctionArguments, at index: Int, in memo: ArgumentMemo<T>,
        _ make: (String) -> T
    ) -> T {
        arguments.withUnsafeUTF8(at: index) { text in memo.value(for: text, make: make) }
    }

    /// The value `parse` makes of the text argument at `index`; an error quoting the text and
    /// saying what was `expected` when it makes none.
    func choice<T>(
        _ arguments: SQLiteFunctionArguments, at index: Int, _ parse: (String) -> T?, expected: String
    ) throws -> T {
        let text = arguments.string(at: index) ?? ""
        guard let value = parse(text) else {
            throw error(at: index, "\(DBBLocaleError.quoted(text)) is not \(expected)")
        }
        return value
    }
}
