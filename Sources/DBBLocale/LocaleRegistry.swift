import DBBCore
import DBBSQLite
import Foundation

/// What the functions need of one locale, computed once per identifier and shared.
final class LocaleInfo: Sendable {
    /// The normalized identifier (`en_US`, `de_DE@fw=sun`).
    let identifier: String
    let locale: Locale
    let calendar: DBBLocaleCalendar
    /// The digits `DateFormatter` writes dates with, when the fast path reproduces this
    /// locale's output exactly; `nil` sends every format through `DateFormatter`.
    let digits: LocaleDigits?

    init(identifier: String) {
        self.identifier = identifier
        self.locale = Locale(identifier: identifier)
        self.calendar = DBBLocaleCalendar(locale: locale)
        self.digits = LocaleInfo.verifiedDigits(locale: locale, calendar: calendar)
    }

    /// The locale's digits, read off `DateFormatter`, kept only when the fast path then
    /// writes exactly what `DateFormatter` writes for a set of probing days and patterns
    /// (year ends, leap days, week 53): no bidi marks, no non-decimal numbering surprises.
    private static func verifiedDigits(locale: Locale, calendar: DBBLocaleCalendar) -> LocaleDigits? {
        let formatter = FoundationDates.makeFormatter(pattern: "d", locale: locale)
        var digits: [[UInt8]] = []
        for day in 1...9 {
            let text = formatter.string(from: DBBDay(year: 2000, month: 1, day: day)!.date)
            guard text.unicodeScalars.count == 1 else { return nil }
            digits.append(Array(text.utf8))
        }
        formatter.dateFormat = "dd"
        let ten = Array(formatter.string(from: DBBDay(year: 2000, month: 1, day: 10)!.date).unicodeScalars)
        guard ten.count == 2, Array(String(ten[0]).utf8) == digits[0] else { return nil }
        let candidate = LocaleDigits([Array(String(ten[1]).utf8)] + digits)

        let probeDays = [
            (2011, 1, 1), (2011, 1, 2), (2012, 12, 30), (2012, 12, 31), (2014, 12, 29),
            (2015, 12, 31), (2016, 2, 29), (2020, 12, 31), (2021, 1, 3), (1999, 7, 4),
        ]
        .map { DBBDay(year: $0.0, month: $0.1, day: $0.2)! }
        for pattern in ["YYYY-ww", "yyyy-MM-dd", "Y w M d Q", "yy YY QQ"] {
            formatter.dateFormat = pattern
            let compiled = DatePattern(pattern)
            for day in probeDays
            where compiled.format(day, calendar: calendar, digits: candidate) != formatter.string(from: day.date) {
                return nil
            }
        }
        return candidate
    }
}

/// Validates locale identifiers and caches a ``LocaleInfo`` for each.
final class LocaleRegistry: Sendable {
    static let shared = LocaleRegistry()

    private let available: Set<String>
    private let cache = Locked<[String: LocaleInfo]>([:])
    /// Identifiers are SQL input: past this many distinct spellings the cache starts over, so
    /// random `@keywords` cannot grow it without bound.
    private let cacheLimit = 1_024

    private init() {
        available = Set(Locale.availableIdentifiers)
    }

    /// The info for `identifier` (spaces around it ignored).
    /// - Throws: ``DBBLocaleError/unknownLocale(_:)``.
    func info(for identifier: String) throws(DBBLocaleError) -> LocaleInfo {
        if let known = cache.withLock({ $0[identifier] }) { return known }
        guard let normalized = normalize(identifier) else { throw .unknownLocale(identifier) }
        let info = cache.withLock { $0[normalized] } ?? LocaleInfo(identifier: normalized)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[normalized] = info
            cache[identifier] = info
        }
        return info
    }

    /// `en_US` for ` en-us `, keeping `@keywords`; `nil` when the base names no available locale.
    private func normalize(_ identifier: String) -> String? {
        let trimmed = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let base = parts.first, !base.isEmpty else { return nil }
        let subtags = base.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        var normalized: [String] = []
        for (index, subtag) in subtags.enumerated() {
            if index == 0 {
                normalized.append(subtag.lowercased())
            } else if subtag.count == 4, subtag.allSatisfy(\.isLetter) {
                normalized.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
            } else {
                normalized.append(subtag.uppercased())
            }
        }
        let candidate = normalized.joined(separator: "_")
        guard available.contains(candidate) || candidate == "en_US_POSIX" else { return nil }
        return parts.count > 1 ? candidate + "@" + parts[1] : candidate
    }
}
