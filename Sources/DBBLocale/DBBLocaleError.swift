/// Why a locale computation was refused.
public enum DBBLocaleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The identifier names no locale in `Locale.availableIdentifiers` (after normalizing
    /// `en-US` to `en_US` and setting `@keywords` aside).
    case unknownLocale(String)

    /// What is wrong, quoting the culprit.
    public var description: String {
        switch self {
        case .unknownLocale(let identifier):
            "'\(identifier)' is not an available locale identifier (e.g. 'en_US', 'ru_RU')"
        }
    }
}

/// An error of a locale SQL function: names the function and the argument, and says what is wrong.
struct LocaleFunctionError: Error, CustomStringConvertible {
    let function: String
    let position: Int
    let argument: String
    let problem: String

    /// `dbb_week: argument 2 (locale) 'xx_YY' is not an available locale identifier (e.g. 'en_US', 'ru_RU')`
    var description: String { "\(function): argument \(position) (\(argument)) \(problem)" }
}
