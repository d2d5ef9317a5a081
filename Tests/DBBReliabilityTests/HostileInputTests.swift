import DBBBuilder
import DBBCodeGen
import DBBLocale
import DBBSQLite
import DBBScript
import DBBTestSupport
import Foundation
import Testing

/// Random inputs, drawn from a seeded generator (the seed is printed; DBB_TEST_SEED replays).
struct HostileValues {
    var random: SeededRandom
    /// A 100,000-digit run, made once.
    static let huge = String(repeating: "9", count: 100_000)

    mutating func int(_ bound: Int) -> Int { Int(random.next(upTo: UInt64(bound))) }

    /// Text that is sometimes almost right: dates, locales and patterns with damage, control
    /// characters, odd Unicode, long runs.
    mutating func text() -> String {
        let pieces = [
            "2011-01-02", "2011-13-45", "99999-01-01", "0000-00-00", "2011-01-02T25:61:00Z", "9999-12-31",
            "0001-01-01", "9999-12-31T23:59:59.9999999-14:00", "0001-01-01T00:00+14:00", "en_US", "ru_RU",
            "xx_YY", "@fw=mon", "YYYY-ww", "'", "''", "MMMM", "EEEE", "GGGGG", "zzzz", "%@", "%d", "\u{0}",
            "\u{202E}", "🇩🇪", "Ω", "\\", "\"", ";", "--", "/*", "\n", "\r", "\t", " ", "-", "+14:00", "T",
            "YYYYY", "yyyyy", "Y", "%%", "%", "w", "Q",
        ]
        var text = ""
        for _ in 0..<int(6) {
            if int(4) == 0 {
                text += String(
                    String.UnicodeScalarView((0..<int(20)).compactMap { _ in Unicode.Scalar(UInt32(int(0x2FFF))) }))
            } else {
                text += pieces[int(pieces.count)]
            }
        }
        if int(50) == 0 { text += Self.huge }
        return text
    }

    mutating func bytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    mutating func value() -> SQLiteValue {
        switch int(9) {
        case 0: .null
        case 1: .integer(Int64(bitPattern: random.next()))
        case 2:
            .real(
                [Double.infinity, -.infinity, .nan, .greatestFiniteMagnitude, -1e300, 0, 3.5e9, -3.5e9, 1e15, -1e15][
                    int(10)])
        case 3: .blob(bytes(int(40)))
        case 4: date()
        default: .text(text())
        }
    }

    /// A date anywhere in years 1…9999 or just outside: text `yyyy-MM-dd`, often at a year's
    /// end, or seconds since 2001 up to a few days past 0001-01-01 and 10000-01-01.
    mutating func date() -> SQLiteValue {
        let (first, last) = (-63_114_076_800.0, 252_423_993_600.0)  // 0001-01-01, 10000-01-01
        switch int(3) {
        case 0:
            let year = [1, 2, 1599, 1600, 9998, 9999][int(6)]
            let (month, day) = int(2) == 0 ? (12, 20 + int(12)) : (1, 1 + int(7))
            return .text(DBBDay(year: year, month: month, day: day)!.description)
        case 1:
            return .real([first, last][int(2)] + Double(int(8 * 86_400)) - 4 * 86_400 + Double(int(1000)) / 1000)
        default:
            return .real(first + Double(random.next(upTo: UInt64(last - first) + 1)))
        }
    }
}

@Suite("Hostile input: a typed error or NULL, never a crash, nothing stored lost")
struct HostileInputTests {
    @Test("random values into every locale SQL function")
    func localeFunctions() throws {
        var values = HostileValues(random: SeededRandom(label: "localeFunctions"))
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let db = database.connection
        try db.execute("CREATE TABLE keep (v); INSERT INTO keep VALUES ('safe')")
        var outcomes = (values: 0, nulls: 0, errors: 0)
        for round in 0..<3_000 {
            let (name, count) = DBBLocaleFunctions.signatures[round % DBBLocaleFunctions.signatures.count]
            var arguments = (0..<count).map { _ in values.value() }
            // Often keep the locale valid, so the other arguments get exercised.
            if values.int(2) == 0,
                let position = [
                    "dbb_week": 1, "dbb_week_start": 1, "dbb_format_date": 2,
                    "ObjcFormatAnsiDateUsingLocale": 2, "dbb_align": 2,
                    "ObjcGetYearAndQuarterUsingLocale": 1,
                    "ObjcGetYearAndHalfYearUsingLocale": 1,
                ][name]
            {
                arguments[position] = ["en_US", "ar_SA", "fa_IR", "ja_JP"][values.int(4)]
            }
            let sql = "SELECT \(name)(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
            do {
                let result = try db.fetchOne(sql, arguments) { $0.value(at: 0) }
                if result == .null { outcomes.nulls += 1 } else { outcomes.values += 1 }
            } catch let error as SQLiteError {
                outcomes.errors += 1
                #expect(error.message.hasPrefix(name + ": argument "), "\(error.message)")
                #expect(error.message.count < 400, "arguments are quoted by their first 80 characters")
            }
        }
        #expect(outcomes.values > 0 && outcomes.nulls > 0 && outcomes.errors > 0, "\(outcomes)")
        #expect(try db.fetchValue("SELECT v FROM keep", as: String.self) == "safe")
    }

    @Test("random bytes and malformed scripts into the build tool: typed errors, output untouched")
    func buildTool() throws {
        var values = HostileValues(random: SeededRandom(label: "buildTool"))
        let fixture = try ScriptFixture()
        try DBBScriptRunner.build(script: try fixture.file("old.txt", "CREATE TABLE old (x);"), output: fixture.output)
        let previous = try Data(contentsOf: fixture.output)
        let lines = [
            "CREATE TABLE t (a, b);", ".import data.csv t", ".import data.csv new", ".mode csv", ".mode tabs",
            ".separator |", ".separator \\t \\n", ".read data.csv", "INSERT INTO t VALUES (1, 2);", ".import",
            ".bogus", "SELECT * FROM nowhere;", "CREATE TABLE", "'unterminated", ".import --skip x data.csv t",
            "BEGIN;", "COMMIT;", "ROLLBACK;", "\u{0}", ".import data.csv \"odd \"\"name\"", "# comment",
        ]
        var failures = 0
        var successes = 0
        for _ in 0..<150 {
            try previous.write(to: fixture.output)
            var data = values.bytes(values.int(300))
            if values.int(2) == 0 { data = Data("a,b\n1,2\n\"x\ny\",3\n\"unterminated,4\n".utf8) + data }
            try data.write(to: fixture.directory.url.appendingPathComponent("data.csv"))
            let script = (0..<values.int(8)).map { _ in
                values.int(5) == 0 ? values.text() : lines[values.int(lines.count)]
            }
            .joined(separator: "\n")
            try fixture.file("script.txt", script)
            do {
                try DBBScriptRunner.build(
                    script: fixture.directory.url.appendingPathComponent("script.txt"),
                    output: fixture.output, replacing: true)
                successes += 1
                #expect(
                    try SQLiteConnection(path: fixture.output.path).fetchValue(
                        "PRAGMA integrity_check", as: String.self) == "ok")
            } catch let error as DBBScriptError {
                failures += 1
                #expect(
                    ["script.txt", "data.csv"].contains(error.script) && !error.message.isEmpty,
                    "errors name the script being read: \(error) (kind \(error.kind))")
                #expect(try Data(contentsOf: fixture.output) == previous, "a failed build leaves the output: \(error)")
            }
        }
        #expect(failures > 0 && successes > 0, "failures \(failures), successes \(successes)")
        let leftovers = try fixture.directory.fileNames().filter { $0.contains("dbb-build") }
        #expect(leftovers.isEmpty, "no temporary files left: \(leftovers)")
    }

    @Test("unknown properties, odd conditions, injection and huge values into query options")
    func queryOptions() throws {
        var values = HostileValues(random: SeededRandom(label: "queryOptions"))
        let database = try ManagerTestDatabase([Shelf.self])
        let manager = database.manager
        try Shelf.save((0..<20).map { Shelf("shelf \($0)", $0, manager: manager) }, manager: manager)
        let conditions = [
            "", " ", "OR", "AND", ")", "(", "label = ?", "label = '", "1=1; DROP TABLE Shelf; --",
            "capacity > ?", "nope = 1", "capacity IN (SELECT capacity FROM Shelf)", "/*", "--", "label LIKE ?",
            "capacity > 9223372036854775807", "length(label) > ?", "zeroblob(16) IS NULL",
        ]
        var errors = 0
        for _ in 0..<400 {
            var options = DBBQueryOptions()
            options.conditions = (0..<values.int(4)).map { _ in
                values.int(6) == 0 ? values.text() : conditions[values.int(conditions.count)]
            }
            options.arguments = (0..<values.int(3)).map { _ in values.value() }
            if values.int(4) == 0 {
                options.propertyNames =
                    [["label"], ["nope"], [], ["capacity", "label"], [values.text()]][values.int(5)]
            }
            if values.int(4) == 0 {
                options.sorting =
                    [["label"], ["DESC"], ["capacity DESC"], ["nope"], [values.text()], ["label up"]][values.int(6)]
            }
            options.distinct = values.int(5) == 0
            do {
                let found = try Shelf.instances(
                    matching: options, manager: manager, sparsePopulation: values.int(5) == 0)
                #expect(found.count <= 20)
            } catch let error as DBBError {
                errors += 1
                #expect(error.table == "Shelf" || error.sqliteError != nil, "\(error)")
            }
        }
        #expect(errors > 0)
        // Injection text is data, and nothing stored was lost.
        var options = DBBQueryOptions.options(withConditions: ["label = ?"])
        options.arguments = ["'; DROP TABLE Shelf; --"]
        #expect(try Shelf.instances(matching: options, manager: manager).isEmpty)
        #expect(try manager.count(of: "Shelf") == 20)
        #expect(try Shelf.all(manager: manager).map(\.capacity) == Array(0..<20))
        // A huge value is stored and read back, not truncated.
        let huge = Shelf(String(repeating: "x", count: 5_000_000), Int.max, manager: manager)
        try huge.save()
        #expect(try Shelf.instance(id: huge.id, manager: manager)?.label.count == 5_000_000)
    }

    @Test("random text into the code generator: declarations or errors with line numbers")
    func codeGenerator() throws {
        var values = HostileValues(random: SeededRandom(label: "codeGenerator"))
        let fragments = [
            "var ", "let ", "@objc ", "weak ", "@property ", "(nonatomic) ", "NSString *", "name", ": ", "String",
            "?", "[", "]", "= ", "0", "\"x\"", "// c", "/* ", " */", "Int", "Person", "static ", "{", "}", ";",
            "\n", "`", "Optional<", ">", "Array<", "NSArray<NSString *> *", "id ", "default",
        ]
        var parsed = 0
        var rejected = 0
        for _ in 0..<1_000 {
            let text = (0..<values.int(30)).map { _ in
                values.int(8) == 0 ? values.text() : fragments[values.int(fragments.count)]
            }.joined()
            do {
                let declarations = try DeclarationParser.parse(text)
                parsed += 1
                let lineCount = text.components(separatedBy: "\n").count
                #expect(declarations.allSatisfy { $0.line >= 1 && $0.line <= lineCount })
                if let first = declarations.first {
                    _ = try? ClassGenerator.generate(
                        declarations, options: GeneratorOptions(className: "Fuzz\(first.line)"))
                }
            } catch {
                rejected += 1
                #expect(error.errors.allSatisfy { $0.line >= 1 && !$0.reason.isEmpty })
            }
        }
        #expect(parsed > 0 && rejected > 0, "parsed \(parsed), rejected \(rejected)")
    }
}

final class Shelf: DBBTableObject {
    var label = ""
    var capacity = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "label": DBBPropertyPersistence(\Shelf.label),
                "capacity": DBBPropertyPersistence(\Shelf.capacity),
            ], for: self)
    }

    convenience init(_ label: String, _ capacity: Int, manager: DBBManager) {
        self.init(dbManager: manager)
        (self.label, self.capacity) = (label, capacity)
    }
}
