import DBBLocale
import DBBWeeklyReport
import Hummingbird

/// The query parameters of the weekly report's routes, checked alike for the JSON and the HTML
/// form: a locale identifier (language, region, variants) that names week rules, days as
/// `yyyy-MM-dd` that exist, `from` not after `to`. A value that fails is answered 400 with
/// ``APIError``'s JSON body naming the parameter.
enum WeeklyReportParameters {
    /// The most locales the HTML report compares (one colour each).
    static let maximumLocales = WeeklyChart.localeColors.count
    /// The longest span of days the HTML report draws: 53 weeks.
    static let maximumDays = 371

    /// `text` as a locale identifier and that locale's week rules.
    static func locale(_ text: Substring, _ field: String) throws -> (String, DBBLocaleCalendar) {
        let locale = String(text)
        // Language, region and variants only: ICU keywords (`@calendar=…`) are not the week
        // rules of a locale, and PostgreSQL's functions refuse them.
        guard locale.wholeMatch(of: /[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*/) != nil else {
            throw APIError.badRequest(field, "'\(locale)' is not a locale identifier such as de_DE or en-US")
        }
        do {
            return (locale, try DBBLocaleCalendar(localeIdentifier: locale))
        } catch {
            throw APIError.badRequest(field, "\(error)")
        }
    }

    /// `locales=en_US,de_DE`: one or more locales, each once, at most ``maximumLocales``.
    static func locales(_ text: Substring) throws -> [String] {
        var locales: [String] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let (locale, _) = try locale(item, "locales")
            guard !locales.contains(locale) else { throw APIError.badRequest("locales", "\(locale) is given twice") }
            locales.append(locale)
        }
        guard locales.count <= maximumLocales else {
            throw APIError.badRequest("locales", "at most \(maximumLocales) locales, not \(locales.count)")
        }
        return locales
    }

    /// A `yyyy-MM-dd` day that exists (no 2011-02-30), as the same text.
    static func day(_ value: Substring?, _ name: String) throws -> String {
        guard let text = value else { throw APIError.badRequest(name, "required") }
        guard ISODate.isDay(text) else {
            throw APIError.badRequest(name, "expected a day as yyyy-MM-dd, e.g. 2010-12-13")
        }
        return String(text)
    }

    /// `from` and `to`, `to` not before `from` (`yyyy-MM-dd` text compares as days do).
    static func days(_ from: Substring?, _ to: Substring?) throws -> (from: String, to: String) {
        let (from, to) = (try day(from, "from"), try day(to, "to"))
        guard from <= to else { throw APIError.badRequest("to", "\(to) is before from (\(from))") }
        return (from, to)
    }
}
