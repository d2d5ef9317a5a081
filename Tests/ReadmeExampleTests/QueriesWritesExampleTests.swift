import DBBBuilder
import Foundation
import Testing

/// The Queries article's writes by condition and keyset pages, run on a small library.
@Suite struct QueriesWritesExampleTests {
    @Test func writesAndKeysetPagesRunOnALibrary() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("writes.sqlite", [Book.self])
        let day = Date(timeIntervalSinceReferenceDate: 315_576_000)
        for (title, author, year, price, published) in [
            ("The Mythical Man-Month", "Fred Brooks", 1975, 20.0, day), ("Peopleware", "Tom DeMarco", 1987, 0, nil),
            ("The C Programming Language", "Brian Kernighan", 1978, 30, nil), ("Old", "Anon", 1960, 10, day + 1),
            ("Free", "Anon", 1999, 0, day),
        ] as [(String, String, Int, Double, Date?)] {
            let book = Book(dbManager: manager)
            (book.title, book.author, book.year, book.price, book.published) = (title, author, year, price, published)
            try book.save()
        }
        given.set(manager, "manager")

        // Newest first, undated last; ties by title.
        let titles = try #require(try ReadmeExamples.queriesKeyset(given) as? [String])
        #expect(
            titles == [
                "Old", "Free", "The Mythical Man-Month", "Peopleware", "The C Programming Language",
            ])

        let stale = try #require(try Book.instances(where: \.title == "Old", manager: manager).first)
        let (repriced, removed, sql) = try #require(
            try ReadmeExamples.queriesWrites(given) as? (Int, Int, DBBQuerySQL))
        #expect(repriced == 3 && removed == 2)
        let books = try Book.all(manager: manager)
        #expect(books.map(\.title) == ["The Mythical Man-Month", "The C Programming Language", "Old"])
        #expect(books.map(\.price) == [18, 27, 9] && books.allSatisfy { $0.published == nil })
        #expect(sql.sql == "DELETE FROM Book WHERE author = ?1" && sql.arguments == [.text("Anon")])
        #expect(throws: DBBError.self) { try stale.save(ifModifiedTimeIs: stale.modifiedTime!) }
    }
}
