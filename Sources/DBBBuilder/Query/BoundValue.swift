import DBBSQLite
import Foundation

/// A value a typed query binds, equal to another only when the engines would store the same
/// thing: text by its UTF-8 bytes (Swift's `==` calls `"é"` and `"e\u{301}"` equal, SQLite and
/// PostgreSQL do not), doubles by their bits (`-0.0` is not `0.0`). Equal bound values share a
/// placeholder (``SQLRenderer``) and make a query's shape (``QueryShape``), so Swift's looser
/// equality would bind one value where the query gave two.
struct BoundValue: Hashable {
    let value: DBBValue

    static func == (lhs: BoundValue, rhs: BoundValue) -> Bool {
        switch (lhs.value, rhs.value) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .integer(let integer): hasher.combine(integer)
        case .real(let real): hasher.combine(real.bitPattern)
        case .text(let text):
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        case .blob(let data): hasher.combine(data)
        }
    }
}
