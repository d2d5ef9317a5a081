import DBBBuilder
import Foundation

/// A visit to a page of a site: what the typed report tests group, count and sum.
@DBBTable
final class Visit: DBBTableObject {
    @NotNull var page = ""
    var seconds = 0.0
    var clicks = 0
    var day: Date?
    var referrer: String?
    var tags: [String] = []
    @Transient var note = ""
}

/// A book on a shelf: what the typed condition tests select by reference, array and title.
@DBBTable
final class Volume: DBBTableObject {
    @NotNull var title = ""
    var author: Writer?
    var tags: [String] = []
    var year = 0
}

/// Referred to by ``Volume/author``.
@DBBTable
final class Writer: DBBTableObject {
    var name = ""
}
