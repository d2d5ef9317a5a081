import ArgumentParser
import DBBCodeGen
import DBBCore
import DBBSQLite
import Foundation

@main
struct CodeGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbb-codegen",
        abstract:
            "Write DBBTableObject subclasses from property declarations or a database, or convert hand-mapped ones to @DBBTable.",
        discussion: """
            Declarations, one per line, in Swift, Objective-C or compact form:
              var name: String?
              @objc var age = 0
              weak var project: Project?
              let tags: [String]
              @property (nonatomic, copy) NSString *title;
              budget: Double = 1.5
              meetings: [Meeting]
              var price: Decimal = 0
              var status: Status = .draft     (an enum: its default case)
              @JSON var address: Address = Address()
            Names alone, separated by commas or spaces, as DBBBuilder's code generator \
            took them, have the type --default-type gives:
              firstName, lastName, nickname
            Comments and blank lines are skipped; a type is inferred from a literal \
            default. Unreadable lines are reported with their numbers, and nothing is \
            written. The class is a @DBBTable class; --dbbbuilder writes DBBBuilder's \
            form instead (a Keys enum and init(dbManager:) with addPersistenceMapping).

            --from-database reads a SQLite file or a postgres:// URL (the latter in a \
            dbb-codegen built with the package trait Postgres) and writes the classes \
            that register against it unchanged: the types its catalog dbb_columns \
            recorded (Date, Int8, references), else the declared types (Real is Double, \
            noted when named like a date; NULL allowed: optional); NOT NULL, unique and \
            DBBBuilder-named indexes become markers. Tables it cannot map (no id INTEGER \
            PRIMARY KEY, a column no property holds) are named on standard error with \
            the reason, and the exit status is 1, unless --allow-skipped.

            --convert rewrites the DBBBuilder-style classes of Swift files (a mapping \
            by hand: addPersistenceMapping, attributesDictionary, DBBIndexer) as \
            @DBBTable classes that map the same tables, columns and indexes, so that \
            a port gets the fast path. Give it every file of the models at once. A \
            class it cannot convert safely is left as it was and reported with its \
            file, line and the reason; the exit status is then 1, unless \
            --allow-unconverted.

            Examples:
              dbb-codegen Person.txt --class Person --index lastName \\
                --not-null firstName > Person.swift
              echo "name: String" | dbb-codegen --class Tag
              echo "title, author, publisher" | dbb-codegen --class Book \\
                --default-type String --dbbbuilder
              dbb-codegen Project.h --class Project --column name=itemName \\
                --output Project.swift
              dbb-codegen --from-database app.sqlite --output-dir Models
              dbb-codegen --from-database app.sqlite --table Meeting \\
                --reference Meeting.participants=Person
              dbb-codegen --from-database postgres://me@db/app \\
                --output-dir Models --allow-skipped
              dbb-codegen --convert Sources/App/Models/*.swift --check
              dbb-codegen --convert Sources/App/Models/*.swift --in-place
            """,
        version: DBBBuilderVersion.current)

    @Argument(
        help: ArgumentHelp(
            "The file of declarations; standard input when absent or '-'. With --convert: the Swift files.",
            valueName: "file"))
    var inputs: [String] = []

    /// The file of declarations (one at most, unless converting).
    var input: String? { inputs.first }

    @Option(name: .customLong("class"), help: "The class to generate from declarations.")
    var className: String?

    @Option(help: ArgumentHelp("The type of declarations that have neither a type nor a default.", valueName: "type"))
    var defaultType: String?

    @Option(help: ArgumentHelp("Properties to index, comma-separated.", valueName: "names"))
    var index: String?

    @Flag(help: "Make the --index index UNIQUE.")
    var uniqueIndex = false

    @Option(help: ArgumentHelp("Properties whose columns are NOT NULL, comma-separated.", valueName: "names"))
    var notNull: String?

    @Option(help: ArgumentHelp("Properties whose columns are UNIQUE, comma-separated.", valueName: "names"))
    var unique: String?

    @Option(help: ArgumentHelp("A custom column name for a property (repeatable).", valueName: "name=column"))
    var column: [String] = []

    @Flag(help: "Write DBBBuilder's form (a Keys enum, init(dbManager:) with addPersistenceMapping), not @DBBTable.")
    var dbbbuilder = false

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Generate classes for the tables of this database: a SQLite file or a postgres:// URL.",
            valueName: "file | URL"))
    var fromDatabase: String?

    @Option(help: ArgumentHelp("With --from-database: only this table (repeatable).", valueName: "name"))
    var table: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --from-database: a join column holding ids of another table (repeatable).",
            valueName: "Table.column=Target"))
    var reference: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --from-database: write one file per class into this folder; with --convert: the converted files.",
            valueName: "folder"))
    var outputDir: String?

    @Flag(help: "With --from-database: exit 0 even when some tables were left out (they are still reported).")
    var allowSkipped = false

    @Flag(help: "Rewrite the DBBBuilder-style classes of the Swift files as @DBBTable classes.")
    var convert = false

    @Flag(help: "With --convert: rewrite the files themselves.")
    var inPlace = false

    @Flag(help: "With --convert: write nothing; report what would change (exit status 1 if anything would).")
    var check = false

    @Flag(help: "With --convert: exit 0 even when some classes were left unconverted (they are still reported).")
    var allowUnconverted = false

    func run() throws {
        do {
            if convert {
                try convertFiles()
            } else if inPlace || check || allowUnconverted {
                throw ValidationError("--in-place, --check and --allow-unconverted go with --convert")
            } else if allowSkipped && fromDatabase == nil {
                throw ValidationError("--allow-skipped goes with --from-database")
            } else if inputs.count > 1 {
                throw ValidationError("declarations come from one file; --convert takes several Swift files")
            } else if let fromDatabase {
                try generateFromDatabase(fromDatabase)
            } else {
                try generateFromDeclarations()
            }
        } catch let error as CodeGenError {
            throw ValidationError(error.description)
        }
    }

    private func generateFromDeclarations() throws {
        guard let className else { throw ValidationError("--class NAME is needed to generate from declarations") }
        let text: String
        if let input, input != "-" {
            guard let contents = try? String(contentsOfFile: input, encoding: .utf8) else {
                throw ValidationError("cannot read \(input)")
            }
            text = contents
        } else {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        var defaultPropertyType: PropertyType?
        if let defaultType {
            guard let parsed = PropertyType.parse(defaultType) else {
                throw ValidationError("--default-type \(defaultType) is not a type")
            }
            defaultPropertyType = parsed
        }
        let properties: [PropertyDeclaration]
        do {
            properties = try DeclarationParser.parse(text, defaultType: defaultPropertyType)
        } catch {
            for line in error.errors {
                FileHandle.standardError.write(
                    Data("\(input.flatMap { $0 == "-" ? nil : $0 } ?? "stdin"): \(line.description)\n".utf8))
            }
            throw ExitCode.failure
        }
        do {
            var options = GeneratorOptions(className: className)
            options.index = list(index)
            options.uniqueIndex = uniqueIndex
            options.notNull = list(notNull)
            options.unique = list(unique)
            options.columns = try pairs(column, option: "--column")
            options.source = input.flatMap { $0 == "-" ? nil : URL(fileURLWithPath: $0).lastPathComponent }
            options.form = dbbbuilder ? .dbbbuilder : .macro
            try write(ClassGenerator.generate(properties, options: options), to: output)
        }
    }

    /// `options` in the form the flags ask for.
    func form(_ options: GeneratorOptions) -> GeneratorOptions {
        var options = options
        options.form = dbbbuilder ? .dbbbuilder : .macro
        return options
    }

    private func list(_ text: String?) -> [String] {
        text?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
    }

    func pairs(_ items: [String], option: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("\(option) takes name=value, not '\(item)'")
            }
            result[parts[0]] = parts[1]
        }
        return result
    }

    func write(_ text: String, to path: String?) throws {
        if let path {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } else {
            print(text, terminator: "")
        }
    }
}
