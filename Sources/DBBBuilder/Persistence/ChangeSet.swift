import DBBSQLite
import Foundation

/// What a save on a ``SetWritingConnection`` has yet to write: sets of rows — new rows of a
/// table, or rows of a table updated in the same columns — and the objects whose join rows
/// follow once every new row has its id. ``SaveSession`` fills it while it walks the graph and
/// has it written (``SetWriter``) when the walk ends, and before anything else uses the
/// connection meanwhile (a save hook that fetches, saves or deletes), so that what runs then
/// sees every row the save wrote before it, as on SQLite.
///
/// The rows of one table keep the order the walk met them in: a set ends where the next row
/// of its table is of another shape (an insert after updates, other changed columns) or names
/// a row the set already updates, and sets are written in the order they began. (Rows of
/// different tables constrain each other only through join rows, which come last.)
final class ChangeSet {
    /// What a set does to its rows.
    enum Shape: Equatable {
        case insert
        /// UPDATEs of the columns at these indices (and `modifiedTime`).
        case update([Int])
    }

    /// Rows of one table of one ``Shape``: the objects, in the order they were met, and where
    /// each one's column values start in the session's ``SavedValues``.
    struct Rows {
        let mapping: TableMapping
        let shape: Shape
        var objects: [DBBTableObject] = []
        var starts: [Int] = []
        /// The ids an update set names: a row named again starts a new set, so the later
        /// values win, as they would row by row.
        var ids: Set<Int64> = []
    }

    /// An object whose join rows are written when the change set is: those of its join
    /// properties that are new (`isNew`), changed since its snapshot (`changedJoins`, or found
    /// different then), into the new snapshot at index `snapshot` of the session's list.
    struct JoinWrite {
        let object: DBBTableObject
        let mapping: TableMapping
        let isNew: Bool
        let changedJoins: [Int]
        let snapshot: Int
        /// Each join property as the walk met it, after its related objects were saved: what a
        /// hook changes later is not written, as on a backend that writes at once.
        let joins: [JoinValues]
    }

    /// A join property's contents when the walk met its object: the values, or for a
    /// relation the related objects, whose ids new ones only get when the change set is written.
    enum JoinValues {
        case values([DBBValue])
        case objects([DBBTableObject])

        /// The join rows' values: for a relation, the objects' ids as they are now.
        var current: [DBBValue] {
            switch self {
            case .values(let values): values
            case .objects(let objects): objects.map { .integer($0.id) }
            }
        }
    }

    /// A conditional UPDATE (``SaveSession/precondition``), written before the sets: the row
    /// of `object`, its `columns` changed, its values from `start`, if its `modifiedTime` is
    /// still `expected`.
    struct Conditional {
        let object: DBBTableObject
        let mapping: TableMapping
        let start: Int
        let columns: [Int]
        let expected: Date?
    }

    /// The conditional UPDATE the change set holds, if any.
    var conditional: Conditional?
    private(set) var sets: [Rows] = []
    /// The last set of each table (by mapping).
    private var lastSet: [ObjectIdentifier: Int] = [:]
    private(set) var joinWrites: [JoinWrite] = []

    var isEmpty: Bool { conditional == nil && sets.isEmpty && joinWrites.isEmpty }

    /// Adds `object`'s row, of `mapping`'s table, its values starting at `start`.
    func add(_ object: DBBTableObject, _ mapping: TableMapping, _ shape: Shape, valuesFrom start: Int) {
        let key = ObjectIdentifier(mapping)
        let index: Int
        if let last = lastSet[key], sets[last].shape == shape, shape == .insert || !sets[last].ids.contains(object.id) {
            index = last
        } else {
            index = sets.count
            lastSet[key] = index
            sets.append(Rows(mapping: mapping, shape: shape))
        }
        sets[index].objects.append(object)
        sets[index].starts.append(start)
        if shape != .insert { sets[index].ids.insert(object.id) }
    }

    func writeJoins(_ write: JoinWrite) { joinWrites.append(write) }

    func removeAll() {
        conditional = nil
        sets.removeAll()
        lastSet.removeAll()
        joinWrites.removeAll()
    }
}
