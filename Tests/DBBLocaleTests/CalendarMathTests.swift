import DBBLocale
import Foundation
import Testing

@Suite("DBBDay and DBBLocaleCalendar arithmetic")
struct CalendarMathTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test("day numbers, fields and weekdays equal Foundation's from 1600 to 2400 (every 7th day)")
    func fieldsMatchFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        let start = try #require(DBBDay(year: 1600, month: 1, day: 1))
        let end = try #require(DBBDay(year: 2400, month: 12, day: 31))
        var checked = 0
        for number in stride(from: start.daysSince1970, through: end.daysSince1970, by: 7) {
            let day = DBBDay(daysSince1970: number)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: day.date)
            #expect(
                day.year == parts.year && day.month == parts.month && day.day == parts.day
                    && day.weekday == parts.weekday,
                "\(day)")
            #expect(DBBDay(year: day.year, month: day.month, day: day.day) == day)
            #expect(DBBDay(day.date.addingTimeInterval(86_399.5)) == day)
            checked += 1
        }
        #expect(checked > 40_000)
    }

    @Test("invalid fields make no day")
    func invalidFields() {
        #expect(DBBDay(year: 2011, month: 2, day: 29) == nil)
        #expect(DBBDay(year: 2012, month: 2, day: 29) != nil)
        #expect(DBBDay(year: 1900, month: 2, day: 29) == nil)
        #expect(DBBDay(year: 2000, month: 2, day: 29) != nil)
        #expect(DBBDay(year: 2011, month: 0, day: 1) == nil)
        #expect(DBBDay(year: 2011, month: 4, day: 31) == nil)
    }

    @Test("adding months clamps to the end of a shorter month, like Calendar")
    func addingMonths() throws {
        let january31 = try #require(DBBDay(year: 2012, month: 1, day: 31))
        #expect(january31.adding(months: 1).description == "2012-02-29")
        #expect(january31.adding(months: -2).description == "2011-11-30")
        #expect(january31.adding(months: 13).description == "2013-02-28")
    }

    @Test("week rules come from the locale; unknown identifiers throw a typed error")
    func localeRules() throws {
        let us = try DBBLocaleCalendar(localeIdentifier: "en_US")
        #expect((us.firstWeekday, us.minimumDaysInFirstWeek) == (1, 1))
        let russia = try DBBLocaleCalendar(localeIdentifier: "ru_RU")
        #expect((russia.firstWeekday, russia.minimumDaysInFirstWeek) == (2, 4))
        #expect(throws: DBBLocaleError.unknownLocale("xx_YY")) { try DBBLocaleCalendar(localeIdentifier: "xx_YY") }
        let iso = DBBLocaleCalendar(firstWeekday: 2, minimumDaysInFirstWeek: 4)
        let december29 = try #require(DBBDay(year: 2014, month: 12, day: 29))
        #expect(iso.weekFields(december29) == (2015, 1))
        #expect(us.weekFields(december29) == (2015, 1))
        let january1 = try #require(DBBDay(year: 2016, month: 1, day: 1))
        #expect(iso.weekFields(january1) == (2015, 53))
    }
}
