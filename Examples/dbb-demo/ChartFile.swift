import ArgumentParser
import Foundation

/// `--chart FILE.svg`: where the weekly report's picture goes.
enum ChartFile {
    /// Refuses, before anything is done, a path the chart cannot or must not be written to: an
    /// empty one, a folder, one in a folder that does not exist or cannot be written, a file that
    /// cannot be written or is not a plain file, a SQLite database (the demo's own, `database`,
    /// above all: the chart never replaces a database).
    static func check(_ path: String, database: String?) throws {
        guard !path.isEmpty else { throw ValidationError("--chart: give a file such as weekly.svg") }
        let shown = DefaultDatabase.display(path)
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent().path
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw ValidationError(
                "--chart: cannot write \(shown): there is no folder \(DefaultDatabase.display(folder))")
        }
        guard isFolder.boolValue else {
            throw ValidationError("--chart: cannot write \(shown): \(DefaultDatabase.display(folder)) is not a folder")
        }
        if let database {
            let own = URL(fileURLWithPath: database).resolvingSymlinksInPath().path
            if [own, own + "-wal", own + "-shm", own + "-journal"].contains(target.path) {
                throw ValidationError("--chart: \(shown) is the demo's database; give another file such as weekly.svg")
            }
        }
        guard manager.fileExists(atPath: target.path, isDirectory: &isFolder) else {
            guard manager.isWritableFile(atPath: folder) else {
                throw ValidationError(
                    "--chart: cannot write \(shown): no permission to write in \(DefaultDatabase.display(folder))")
            }
            return
        }
        guard !isFolder.boolValue else {
            throw ValidationError("--chart: \(shown) is a folder; give a file such as weekly.svg")
        }
        let type = try? manager.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType
        guard type == .typeRegular else {
            throw ValidationError("--chart: \(shown) is not a plain file; give a file such as weekly.svg")
        }
        guard manager.isWritableFile(atPath: target.path) else {
            throw ValidationError("--chart: cannot write \(shown): no permission to replace it")
        }
        if let head = FileHandle(forReadingAtPath: target.path).map({ handle in
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 16)) ?? Data()
        }), head == Data("SQLite format 3\0".utf8) {
            throw ValidationError("--chart: \(shown) is a SQLite database; the chart never replaces one")
        }
    }

    /// Writes `svg` to `path`, replacing what was there.
    /// - Throws: ``WriteError`` naming the file.
    static func write(_ svg: String, to path: String) throws {
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw WriteError(path: DefaultDatabase.display(path), reason: error.localizedDescription)
        }
    }

    /// The chart could not be written (a folder without write permission, a full disk…).
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write the chart to \(path): \(reason)" }
    }
}
