import ArgumentParser
import Foundation

/// `--chart FILE.svg`: where the weekly report's picture goes.
enum ChartFile {
    /// Refuses, before anything is done, a path that names a folder or lies in a folder that
    /// does not exist.
    static func check(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ValidationError(
                "--chart: \(DefaultDatabase.display(path)) is a folder; give a file such as weekly.svg")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError(
                "--chart: cannot write \(DefaultDatabase.display(path)): there is no folder \(DefaultDatabase.display(folder))"
            )
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
