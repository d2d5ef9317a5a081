/// Why a locale computation was refused.
public enum DBBLocaleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The identifier names no locale in `Locale.availableIdentifiers` (after normalizing
    /// `en-US` to `en_US` and setting `@keywords` aside).
    case unknownLocale(String)

    /// What is wrong, quoting the culprit (its first 80 characters when it is longer).
    public var description: String {
        switch self {
        case .unknownLocale(let identifier):
            "\(DBBLocaleError.quoted(identifier)) is not an available locale identifier (e.g. 'en_US', 'ru_RU')"
        }
    }

    /// How many characters (Unicode scalars) of an argument a message quotes.
    static let quotedLength = 80

    /// `text` in single quotes for a message. Longer text is cut to its first ``quotedLength``
    /// characters (Unicode scalars), followed by `…` and the whole length, so a 20,000-character
    /// argument does not fill a log: `'en_USen_US…' (20000 characters)`.
    static func quoted(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var shown = String.UnicodeScalarView()
        var count = 0
        for scalar in scalars {
            guard count < quotedLength else {
                return "'\(String(shown))…' (\(scalars.count) characters)"
            }
            shown.append(scalar)
            count += 1
        }
        return "'\(text)'"
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
