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

// MARK: - Joins

/// A writer of novels, mentored by another (a reference to its own class): what the join
/// tests reach through ``Novel/author``, ``Novel/editor`` and ``Crew/members``.
@DBBTable
final class Penman: DBBTableObject {
    @NotNull var name = ""
    var country: String?
    var born = 0
    var mentor: Penman?
    @Transient var nickname = ""
}

/// A novel: two references to the same class (author and editor).
@DBBTable
final class Novel: DBBTableObject {
    @NotNull var title = ""
    var author: Penman?
    var editor: Penman?
    var published: Date?
    var pages = 0
}

/// A crew of writers: an array of objects in a join table.
@DBBTable
final class Crew: DBBTableObject {
    @NotNull var name = ""
    var members: [Penman] = []
}

/// Keeps a ``Pet``, whose species its superclass ``Animal`` maps.
@DBBTable
final class Keeper: DBBTableObject {
    var name = ""
    var pet: Pet?
}
