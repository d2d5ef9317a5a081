import Synchronization

/// Which objects a save session has visited and which rows it knows exist, kept in the objects
/// themselves (``DBBTableObject/visitMark``, ``DBBTableObject/confirmMark``) instead of sets of
/// object identifiers that hash every object.
///
/// A mark is a number drawn from one process-wide counter that only grows. An object is
/// marked in this session when its mark was drawn by this session: at or above the first
/// number the session drew, and not in a range a failed nested save gave up.
///
/// Why an older or foreign mark can never pass for one of this session's:
/// - an object is saved only by sessions of its own manager (``SaveSession`` checks that every
///   object it visits belongs to its manager), and those run one after another under the
///   manager's writer lock: every mark a finished session left is below the next one's first;
/// - marks drawn meanwhile by other managers' sessions are only ever written into those
///   managers' objects.
struct SaveMarks {
    private static let counter = Atomic<UInt64>(0)

    private static func draw() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }

    /// The first number this session drew.
    private let first: UInt64
    /// The number new marks get.
    private(set) var current: UInt64
    /// Marks given during nested saves that failed: they mark nothing.
    private var abandoned: [ClosedRange<UInt64>] = []

    init() {
        first = Self.draw()
        current = first
    }

    /// Whether `mark` was given by this session (and not given up).
    @inline(__always)
    func holds(_ mark: UInt64) -> Bool {
        mark >= first && (abandoned.isEmpty || !abandoned.contains { $0.contains(mark) })
    }

    /// Starts a nested save: what it marks can be given up with ``abandon(since:)``.
    mutating func beginNested() -> UInt64 {
        current = Self.draw()
        return current
    }

    /// Gives up every mark given since `start` (a nested save rolled back): the objects it
    /// visited or confirmed are as they were before it.
    mutating func abandon(since start: UInt64) {
        abandoned.append(start...current)
        current = Self.draw()
    }
}
