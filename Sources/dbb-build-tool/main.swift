// The program DBBBuildPlugin runs at build time: `dbb-build-tool OUTPUT SCRIPT` builds the
// database (replacing OUTPUT once the script succeeded), and on failure prints the error as
// compilers do, `path:line: error: message`, so that SwiftPM and editors point at the line.
// It depends on DBBScript alone: a package using the plugin never builds PostgreSQL support.
import DBBCore
import DBBSQLite
import DBBScript
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments == ["--version"] {
    print(DBBBuilderVersion.current)
    exit(0)
}
guard arguments.count == 2, let output = arguments.first, let script = arguments.last else {
    FileHandle.standardError.write(Data("usage: dbb-build-tool OUTPUT SCRIPT\n".utf8))
    exit(2)
}
let scriptURL = URL(fileURLWithPath: script)
do {
    try DBBScriptRunner.build(script: scriptURL, output: URL(fileURLWithPath: output), replacing: true)
} catch let error as DBBScriptError {
    FileHandle.standardError.write(Data((BuildToolMessage(error, script: scriptURL).text + "\n").utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("\(script): error: \(error)\n".utf8))
    exit(1)
}
