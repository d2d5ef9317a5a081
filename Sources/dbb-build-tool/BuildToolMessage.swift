import DBBScript
import Foundation

/// A build error as a compiler writes one: `path:line: error: message`, at the data file's
/// line for a bad record (with the script line that imported it in the message), else at the
/// script line.
struct BuildToolMessage {
    let text: String

    init(_ error: DBBScriptError, script: URL) {
        guard error.kind == .script, !error.script.isEmpty else {
            text = "\(script.path): error: \(error.message)"
            return
        }
        // The error names files by their last component; the path is the one file of the build
        // with that name (when two share it, the name alone: better than the wrong file).
        let files = DBBScriptRunner.inputFiles(of: script)
        func path(_ name: String) -> String {
            let last = URL(fileURLWithPath: name).lastPathComponent
            let matches = files.filter { $0.lastPathComponent == last }
            return matches.count == 1 ? matches[0].path : name
        }
        let scriptLine = "\(path(error.script)):\(error.line)"
        if let dataFile = error.dataFile {
            let location = "\(path(dataFile))" + (error.row.map { ":\($0)" } ?? "")
            text = "\(location): error: \(error.message) (imported at \(scriptLine))"
        } else {
            text = "\(scriptLine): error: \(error.message)"
        }
    }
}
