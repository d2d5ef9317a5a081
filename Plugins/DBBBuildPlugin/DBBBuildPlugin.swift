import Foundation
import PackagePlugin

/// Builds a reference database from each `*.dbbscript` file of a target, at build time, into
/// the target's resources: `Bundle.module.url(forResource: "food", withExtension: "sqlite")`
/// for `food.dbbscript`. The script is read as `dbb build` reads it (the sqlite3 shell's
/// language, `.import` of CSV files, names relative to the script's folder).
///
/// SwiftPM runs the build again only when the script or a file it reads (its `.import`ed
/// files, its `.read` scripts) changed. A failing script fails the build with
/// `script:line: error: …` (or the CSV file's line for a bad record).
@main
struct DBBBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "dbb-build-tool")
        return target.sourceFiles(withSuffix: "dbbscript").map { script in
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(
                script.url.deletingPathExtension().lastPathComponent + ".sqlite")
            return .buildCommand(
                displayName: "Building \(output.lastPathComponent) from \(script.url.lastPathComponent)",
                executable: tool.url,
                arguments: [output.path, script.url.path],
                inputFiles: DotCommand.filesRead(by: script.url),
                outputFiles: [output])
        }
    }
}
