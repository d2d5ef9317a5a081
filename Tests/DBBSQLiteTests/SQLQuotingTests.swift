import DBBCore
import DBBSQLite
import Foundation
import Testing

/// The one identifier quoting and the one literal quoting every layer uses read back, in
/// SQLite, as the names and texts they quote — keywords, quotes and non-ASCII included.
@Suite("SQL quoting: identifiers and literals SQLite reads back as written")
struct SQLQuotingTests {
    static let names = ["plain", "order", #"say "hi""#, "it's", "", "Zoë Ω", "a;b -- c"]

    @Test("a quoted identifier names a table and a column as written", arguments: names.filter { !$0.isEmpty })
    func identifiers(_ name: String) throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let table = SQLQuoting.identifier(name)
        try connection.execute("CREATE TABLE \(table) (\(table) INTEGER)")
        try connection.execute("INSERT INTO \(table) (\(table)) VALUES (7)")
        #expect(try connection.fetchValue("SELECT \(table) FROM \(table)", as: Int.self) == 7)
        let stored = try connection.fetchValue("SELECT name FROM sqlite_master WHERE type = 'table'", as: String.self)
        #expect(stored == name)
    }

    @Test("a quoted literal is the text it quotes", arguments: names)
    func literals(_ text: String) throws {
        let connection = try SQLiteConnection(path: ":memory:")
        #expect(try connection.fetchValue("SELECT \(SQLQuoting.literal(text))", as: String.self) == text)
        #expect(SQLiteValue.text(text).description == SQLQuoting.literal(text))
    }
}
