import Dispatch
import Foundation

/// Headless Chromium, run as a command: the DOM it builds from a page, and a screenshot of it.
/// `nil` where no Chromium is installed, unless `DBB_REQUIRE_CHROMIUM` is set (as CI does),
/// which makes a missing browser an error.
struct Chromium {
    let executable: URL
    /// A throwaway profile folder per run, so that runs never share a profile lock.
    let directory: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init?(directory: URL) throws {
        let names = ["chromium", "chromium-browser", "google-chrome"]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = names.lazy.flatMap { name in path.split(separator: ":").map { "\($0)/\(name)" } }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found else {
            let missing = "Chromium not found (\(names.joined(separator: ", ")) on PATH)"
            if ProcessInfo.processInfo.environment["DBB_REQUIRE_CHROMIUM"] != nil {
                throw Failure(description: "\(missing), and DBB_REQUIRE_CHROMIUM is set")
            }
            print("Skipping the browser test: \(missing) (apt-get install chromium)")
            return nil
        }
        executable = URL(fileURLWithPath: found)
        self.directory = directory
    }

    /// The DOM of `url` once loaded, serialized (`--dump-dom`).
    func dom(_ url: String) async throws -> String {
        try await run(["--dump-dom", url], name: "dom")
    }

    /// A PNG of `url` in a window of `width` × `height` CSS pixels, one device pixel each.
    func screenshot(_ url: String, width: Int, height: Int) async throws -> URL {
        let file = directory.appendingPathComponent("screenshot.png")
        _ = try await run(
            [
                "--screenshot=\(file.path)", "--window-size=\(width),\(height)", "--hide-scrollbars",
                "--force-device-scale-factor=1", "--force-color-profile=srgb", url,
            ], name: "screenshot")
        return file
    }

    /// Runs Chromium headless with `arguments` and returns its output. A run that has not
    /// ended after five minutes (a hung browser, not a slow one) is killed and reported.
    private func run(_ arguments: [String], name: String) async throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=\(directory.appendingPathComponent("profile-\(name)").path)",
            ] + arguments
        let output = directory.appendingPathComponent("\(name).out")
        let errors = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
                DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
            } catch {
                continuation.resume(throwing: error)
            }
        }
        watchdog.cancel()
        let text = try String(contentsOf: output, encoding: .utf8)
        guard process.terminationReason == .exit else {
            throw Failure(description: "chromium \(name) did not end within five minutes: killed")
        }
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(
                description: "chromium \(name) exited with \(process.terminationStatus): \(log.suffix(2000))")
        }
        return text
    }
}
