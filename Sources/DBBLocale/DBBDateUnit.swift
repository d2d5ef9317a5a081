import Foundation

/// A calendar period that dates are aligned to, and a date range's resolution.
///
/// SQL spells them `'day'`, `'week'`, `'month'`, `'quarter'`, `'halfyear'`, `'year'`
/// (any case; `'half-year'` and `'half_year'` too).
public enum DBBDateUnit: String, Sendable, Hashable, CaseIterable {
    /// One day.
    case day
    /// A localized week: its first day is the locale's first weekday.
    case week
    /// A calendar month.
    case month
    /// January–March, April–June, July–September, October–December.
    case quarter
    /// January–June or July–December.
    case halfYear = "halfyear"
    /// A calendar year.
    case year

    /// The unit an SQL argument names, or `nil`.
    public init?(sqlName: String) {
        let name = sqlName.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        self.init(rawValue: name)
    }
}

/// Which end of a period an alignment goes to.
public enum DBBAlignmentEdge: String, Sendable, Hashable, CaseIterable {
    /// The first day of the period.
    case start
    /// The last day of the period.
    case end

    /// The edge an SQL argument names (`'start'` or `'end'`, any case), or `nil`.
    public init?(sqlName: String) {
        self.init(rawValue: sqlName.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
