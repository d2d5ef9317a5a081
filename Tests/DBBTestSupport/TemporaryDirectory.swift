import Foundation

/// A fresh directory under the system temp folder, deleted with everything in it when the
/// value is released. Every test that touches files makes its own, so tests run in parallel.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let connection = try SQLiteConnection(path: directory.path("test.sqlite"))
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates `dbb-tests-<uuid>` in the temp folder.
    public init(_ label: String = "dbb-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ bytes: Data, to name: String) throws -> String {
        let path = path(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The names of the files in the directory, sorted.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
