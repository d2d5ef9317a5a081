import DBBBuilder

/// What the name-claim suites share: the error of a refused name, and a book with tags.
enum NameClaims {
    /// Whether `error` refuses a name as taken (``DBBError/Kind/invalidMapping``), naming each
    /// of `names` and saying that nothing changed.
    static func isClash(_ error: any Error, _ names: [String]) -> Bool {
        guard let error = error as? DBBError, error.kind == .invalidMapping else { return false }
        return names.allSatisfy { error.message.contains($0) } && error.message.contains("Nothing was changed")
    }

    /// Saves a book with two tags; its id.
    static func saveBook(_ manager: DBBManager) throws -> Int64 {
        let book = ClaimBook(dbManager: manager)
        (book.title, book.tags) = ("TAOCP", ["formal", "classic"])
        try book.save()
        return book.id
    }
}
