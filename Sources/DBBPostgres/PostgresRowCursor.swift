#if Postgres
@_spi(DBBBackend) import DBBBuilder
import PostgresNIO

/// The rows of one answer, walked forward: each row's cells are decoded into values when the
/// walk reaches it, into one place that ``reader`` points at (the rows are never all decoded
/// at once). Reused from answer to answer.
final class PostgresRowCursor: DatabaseRows {
    private var rows: [PostgresRow] = []
    private var position = -1
    /// The current row: one place for the cursor's life, grown to the widest row.
    private let current: UnsafeMutablePointer<DBBValueRow>
    private var capacity = 0
    /// The first column that holds an array (``PlannedStatement/arraysFrom``), and the cells
    /// of the current row from there on, decoded only when asked for.
    private var arraysFrom = Int.max
    private var arrays: [ByteBuffer?] = []

    init() {
        current = UnsafeMutablePointer.allocate(capacity: 1)
        current.initialize(to: DBBValueRow(values: UnsafeMutablePointer.allocate(capacity: 0), count: 0))
    }

    deinit {
        clearRow()
        current.pointee.values.deallocate()
        current.deallocate()
    }

    /// Walks `rows` from before the first; the columns from `arraysFrom` on hold arrays.
    func start(_ rows: [PostgresRow], arraysFrom: Int? = nil) {
        clear()
        self.rows = rows
        self.arraysFrom = arraysFrom ?? Int.max
    }

    /// Lets the rows go.
    func clear() {
        clearRow()
        rows = []
        position = -1
    }

    func step() throws -> Bool {
        position += 1
        guard position < rows.count else { return false }
        clearRow()
        let row = rows[position]
        if row.count > capacity {
            current.pointee.values.deallocate()
            current.pointee.values = UnsafeMutablePointer.allocate(capacity: row.count)
            capacity = row.count
        }
        let values = current.pointee.values
        var decoded = 0
        defer { current.pointee.count = decoded }
        arrays.removeAll(keepingCapacity: true)
        for cell in row {
            if decoded >= arraysFrom {
                arrays.append(cell.bytes)
                (values + decoded).initialize(to: .null)
            } else {
                (values + decoded).initialize(to: try DBBValue(cell: cell))
            }
            decoded += 1
        }
        return true
    }

    func elements(at index: Int) throws -> [DBBValue] {
        guard index >= arraysFrom, index - arraysFrom < arrays.count else {
            throw DBBError(backend: .invalidOption, "column \(index) of the row holds no array")
        }
        return try DBBValue.elements(ofArray: arrays[index - arraysFrom], column: index)
    }

    var reader: DBBColumnReader { DBBColumnReader(row: current) }

    /// Every remaining row's values.
    func remaining() throws -> [[DBBValue]] {
        var all: [[DBBValue]] = []
        all.reserveCapacity(max(rows.count - position - 1, 0))
        while try step() {
            all.append(Array(UnsafeBufferPointer(start: current.pointee.values, count: current.pointee.count)))
        }
        return all
    }

    private func clearRow() {
        current.pointee.values.deinitialize(count: current.pointee.count)
        current.pointee.count = 0
    }
}
#endif
