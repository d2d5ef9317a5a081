import Foundation

/// A folder with a build script and its data files, and where to build.
public struct ScriptFixture {
    public let directory: TemporaryDirectory
    public var output: URL { directory.url.appendingPathComponent("out.sqlite") }

    public init() throws { directory = try TemporaryDirectory("dbb-script") }

    /// Writes `text` (UTF-8) to `name` and returns its URL.
    @discardableResult
    public func file(_ name: String, _ text: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Writes raw bytes to `name` and returns its URL.
    @discardableResult
    public func file(_ name: String, bytes: [UInt8]) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Runs a program, returning its exit status, standard output and standard error.
    /// `environment` sets or, with `nil` values, removes variables of this process's environment.
    public static func run(
        _ executable: URL, _ arguments: [String], input: String? = nil,
        in folder: URL? = nil, environment: [String: String?] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let (status, data) = ChildOutput.collect(process, [out, err])
        return (status, String(decoding: data[0], as: UTF8.self), String(decoding: data[1], as: UTF8.self))
    }

    /// The sqlite3 command-line shell, when installed.
    public static var sqlite3: URL? {
        ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
            .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The `dbb` executable built beside the test bundle.
    public static var dbb: URL? { product("dbb") }

    /// An executable product of the package, built beside the test bundle.
    public static func product(_ name: String) -> URL? {
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
