import Foundation

/// The names and digits `DateFormatter` writes in a locale's dates (Gregorian calendar, UTC):
/// month, weekday, quarter, AM/PM and era names in each width TR35 patterns ask for, and the
/// ten digits of the locale's numbering system.
///
/// The PostgreSQL locale functions keep these in their rules table to write `MMMM`, `EEE`,
/// `QQQQ`… without Foundation; each set equals what a `DateFormatter` writes for the pattern
/// letters named on its case.
///
/// ```swift
/// let russian = try DBBLocaleSymbols(localeIdentifier: "ru_RU")
/// russian[.monthWide][0]            // "января" (MMMM: the form inside a date)
/// russian[.standaloneMonthWide][0]  // "январь" (LLLL)
/// ```
public struct DBBLocaleSymbols: Sendable, Hashable {
    /// A set of names (or the digits), in the order of the values they name.
    public enum Set: Int, CaseIterable, Sendable {
        /// `0` … `9`.
        case digits
        /// `MMM`, `MMMM`, `MMMMM`: January … December, inside a date.
        case monthAbbreviated, monthWide, monthNarrow
        /// `LLL`, `LLLL`, `LLLLL`: January … December, on their own.
        case standaloneMonthAbbreviated, standaloneMonthWide, standaloneMonthNarrow
        /// `E`…`EEE`, `EEEE`, `EEEEE`: Sunday … Saturday, inside a date.
        case weekdayAbbreviated, weekdayWide, weekdayNarrow
        /// `ccc`, `cccc`, `ccccc`: Sunday … Saturday, on their own.
        case standaloneWeekdayAbbreviated, standaloneWeekdayWide, standaloneWeekdayNarrow
        /// `QQQ`, `QQQQ`: the four quarters, inside a date.
        case quarterAbbreviated, quarterWide
        /// `qqq`, `qqqq`: the four quarters, on their own.
        case standaloneQuarterAbbreviated, standaloneQuarterWide
        /// `a`: AM, PM.
        case dayPeriod
        /// `G`…`GGG`, `GGGG`: the era of every supported date (AD), abbreviated and wide.
        case era

        /// How many names the set holds.
        public var count: Int {
            switch self {
            case .digits: 10
            case .monthAbbreviated, .monthWide, .monthNarrow, .standaloneMonthAbbreviated,
                .standaloneMonthWide, .standaloneMonthNarrow:
                12
            case .weekdayAbbreviated, .weekdayWide, .weekdayNarrow, .standaloneWeekdayAbbreviated,
                .standaloneWeekdayWide, .standaloneWeekdayNarrow:
                7
            case .quarterAbbreviated, .quarterWide, .standaloneQuarterAbbreviated, .standaloneQuarterWide: 4
            case .dayPeriod, .era: 2
            }
        }

        /// Where the set starts in ``DBBLocaleSymbols/flattened``, counting from 0.
        public var offset: Int {
            Set.allCases.prefix(while: { $0 != self }).reduce(0) { $0 + $1.count }
        }
    }

    /// The normalized locale identifier.
    public let identifier: String
    /// Every set, in the order of ``Set``.
    private let sets: [[String]]

    /// The symbols of a locale (`en_US`, `ru-RU`, `de_DE@fw=sun`).
    /// - Throws: ``DBBLocaleError/unknownLocale(_:)``.
    public init(localeIdentifier: String) throws(DBBLocaleError) {
        let info = try LocaleRegistry.shared.info(for: localeIdentifier)
        self.init(identifier: info.identifier, locale: info.locale)
    }

    /// The symbols of `locale`, filed under `identifier`.
    public init(identifier: String, locale: Locale) {
        self.identifier = identifier
        let formatter = FoundationDates.makeFormatter(pattern: "d", locale: locale)
        var digits: [String] = []
        for day in 1...9 { digits.append(formatter.string(from: DBBDay(year: 2000, month: 1, day: day)!.date)) }
        formatter.dateFormat = "dd"
        let ten = formatter.string(from: DBBDay(year: 2000, month: 1, day: 10)!.date)
        digits.insert(ten.unicodeScalars.count == 2 ? String(ten.unicodeScalars.last!) : "0", at: 0)
        let f = formatter
        sets = [
            digits,
            f.shortMonthSymbols, f.monthSymbols, f.veryShortMonthSymbols,
            f.shortStandaloneMonthSymbols, f.standaloneMonthSymbols, f.veryShortStandaloneMonthSymbols,
            f.shortWeekdaySymbols, f.weekdaySymbols, f.veryShortWeekdaySymbols,
            f.shortStandaloneWeekdaySymbols, f.standaloneWeekdaySymbols, f.veryShortStandaloneWeekdaySymbols,
            f.shortQuarterSymbols, f.quarterSymbols, f.shortStandaloneQuarterSymbols, f.standaloneQuarterSymbols,
            [f.amSymbol, f.pmSymbol],
            [f.eraSymbols.last ?? "AD", f.longEraSymbols.last ?? "Anno Domini"],
        ].enumerated().map { index, names in
            let set = Set(rawValue: index)!
            // Never short of names: a missing one is written empty rather than shifting the others.
            return Array((names + Array(repeating: "", count: set.count)).prefix(set.count))
        }
    }

    /// The names of `set`.
    public subscript(set: Set) -> [String] { sets[set.rawValue] }

    /// Every set one after the other, in the order of ``Set`` (see ``Set/offset``).
    public var flattened: [String] { sets.flatMap { $0 } }

    /// Whether the digits are the ASCII `0` … `9`.
    public var hasASCIIDigits: Bool { self[.digits] == (0...9).map(String.init) }
}
