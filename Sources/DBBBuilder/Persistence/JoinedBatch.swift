import DBBSQLite
import Foundation

/// Objects one query returned, of one mapping with join properties: the order in which to
/// walk them by id, and the join snapshots their value joins' loading already gave.
final class JoinedBatch {
    let objects: [DBBTableObject]
    let mapping: TableMapping
    /// The snapshots of the loaded value joins (not relations), by join index: one per object.
    private var snapshots: [[[DBBValue]]?]

    init(objects: [DBBTableObject], mapping: TableMapping) {
        self.objects = objects
        self.mapping = mapping
        snapshots = Array(repeating: nil, count: mapping.joins.count)
    }

    /// The positions of the objects in ascending id order (as the join rows come).
    lazy var positionsByID: [Int] = {
        let positions = Array(objects.indices)
        if zip(objects, objects.dropFirst()).allSatisfy({ $0.id <= $1.id }) { return positions }
        return positions.sorted { objects[$0].id < objects[$1].id }
    }()

    /// Records the snapshots a value join's assignment returned.
    func loaded(_ join: String, _ values: [[DBBValue]]) {
        guard let index = mapping.joins.firstIndex(where: { $0.name == join }) else { return }
        snapshots[index] = values
    }

    /// Gives every object the snapshot of its join properties: what loading a value join
    /// returned, and for relations and joins not loaded, what the property holds now.
    func completeSnapshots() {
        let joins = mapping.joins
        let loaded = snapshots
        for (position, object) in objects.enumerated() {
            var values: [[DBBValue]] = []
            values.reserveCapacity(joins.count)
            for index in joins.indices {
                if let snapshots = loaded[index] {
                    values.append(snapshots[position])
                } else {
                    values.append(joins[index].access.values(object))
                }
            }
            object.snapshot?.joins = values
            // What loading the joins set is not the application's doing.
            object.assignedMarks = 0
        }
    }
}
