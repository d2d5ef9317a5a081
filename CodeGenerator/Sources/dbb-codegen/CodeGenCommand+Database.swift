import ArgumentParser
import DBBBuilder
import DBBCodeGen
import DBBCore
import Foundation

#if Postgres
import DBBPostgres
#endif

extension CodeGenCommand {
    /// `--from-database FILE | URL`: the classes of its tables, the tables left out and the
    /// notes to standard error; exit status 1 when a table was left out, unless `--allow-skipped`.
    func generateFromDatabase(_ place: String) throws {
        let manager = try open(place)
        let reading: DatabaseReader.Reading
        do {
            reading = try DatabaseReader.read(
                manager, only: table, references: try pairs(reference, option: "--reference"))
        } catch let error as DBBError {
            throw ValidationError(redacted("\(error)", place))
        }
        // Every class is written before any file is: a table whose class cannot be written is
        // left out like the others, and nothing is left half done.
        var skipped = reading.skipped
        var classes: [(name: String, source: String)] = []
        for table in reading.tables {
            do {
                let source = try ClassGenerator.generate(
                    table.properties, options: form(table.options), header: outputDir != nil || classes.isEmpty)
                classes.append((table.className, source))
            } catch let error as CodeGenError {
                skipped.append(.init(table: table.options.tableName ?? table.className, reason: error.reason))
            }
        }
        let standardError = FileHandle.standardError
        for note in reading.notes { standardError.write(Data("note: \(note)\n".utf8)) }
        for table in skipped { standardError.write(Data("dbb-codegen: \(table)\n".utf8)) }
        if reading.needsStoredJSON { classes.append((StoredJSON.typeName, StoredJSON.source)) }
        if let outputDir {
            try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            let folder = URL(fileURLWithPath: outputDir)
            for (name, source) in classes {
                try write(source, to: folder.appendingPathComponent("\(name).swift").path)
            }
        } else {
            try write(classes.map(\.source).joined(separator: "\n"), to: output)
        }
        if !skipped.isEmpty && !allowSkipped { throw ExitCode.failure }
    }

    /// A read-only manager on the file or the PostgreSQL database `place` names: nothing in it
    /// is changed.
    private func open(_ place: String) throws -> DBBManager {
        if DatabasePlace.isURL(place) { return try openPostgres(place) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: place, isDirectory: &isFolder) else {
            throw ValidationError("\(place) does not exist")
        }
        guard !isFolder.boolValue else { throw ValidationError("\(place) is a folder, not a database") }
        do {
            return try DBBManager(url: URL(fileURLWithPath: place), readOnly: true)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    #if Postgres
    private func openPostgres(_ url: String) throws -> DBBManager {
        do {
            var configuration = try DBBPostgresConfiguration(url: url)
            configuration.readOnly = true
            configuration.poolSize = 1
            return try DBBManager(postgres: configuration)
        } catch {
            throw ValidationError(redacted("\(error)", url))
        }
    }

    /// `message` without the password of `place`, should a message repeat it.
    private func redacted(_ message: String, _ place: String) -> String {
        guard DatabasePlace.isURL(place), let password = try? DBBPostgresConfiguration(url: place).password,
            !password.isEmpty
        else { return message }
        return message.replacingOccurrences(of: password, with: "***")
    }
    #else
    private func openPostgres(_ url: String) throws -> DBBManager {
        throw ValidationError(
            "this dbb-codegen was built without PostgreSQL: run it with the package trait Postgres, "
                + "`swift run --traits Postgres dbb-codegen --from-database postgres://…`")
    }

    private func redacted(_ message: String, _ place: String) -> String { message }
    #endif
}
