import DBBScript
import Foundation

/// A build error as a compiler writes one: `path:line: error: message`, at the data file's
/// line for a bad record (with the script line that imported it in the message), else at the
/// line of the script (or the nested `.read` script) that failed.
struct BuildToolMessage {
    let text: String

    init(_ error: DBBScriptError, script: URL) {
        let scriptPath = error.scriptURL?.path ?? script.path
        let scriptLocation = error.line > 0 ? "\(scriptPath):\(error.line)" : scriptPath
        if let data = error.dataFileURL, let row = error.row {
            text = "\(data.path):\(row): error: \(error.message) (imported at \(scriptLocation))"
        } else if let dataFile = error.dataFile {
            text = "\(scriptLocation): error: \(dataFile): \(error.message)"
        } else {
            text = "\(scriptLocation): error: \(error.message)"
        }
    }
}
