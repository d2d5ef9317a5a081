import Foundation

extension Date {
    /// The stored form of the date (seconds since 2001-01-01) as text, for comparisons in
    /// conditions: `"startDate > \(date.dbb_dateComparisonString())"`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // DBBBuilder's category name, kept for porting.
    public func dbb_dateComparisonString() -> String {
        String(timeIntervalSinceReferenceDate)
    }

    /// The stored form of the date: seconds since 2001-01-01.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // DBBBuilder's category name, kept for porting.
    public func dbb_timeIntervalForDate() -> TimeInterval {
        timeIntervalSinceReferenceDate
    }

    /// The date a stored value stands for.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // DBBBuilder's category name, kept for porting.
    public static func dbb_dateFromTimeInterval(_ interval: TimeInterval) -> Date {
        Date(timeIntervalSinceReferenceDate: interval)
    }
}
