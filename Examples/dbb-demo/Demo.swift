import ArgumentParser
import DBBBuilder
import DBBWeeklyReport
import Foundation

@main
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbb-demo",
        abstract: "A tour of DBBBuilder: table objects with relations, queries, and locale-aware weekly reports.",
        discussion: """
            Saves a small data set (people, companies, projects, meetings) and a year of \
            visit statistics, then shows fetches and the seed's weekly "value per visit" \
            report grouped by US, Russian and German weeks next to SQLite's own \
            strftime('%Y-%W').

            Each user has a database of their own: dbb-demo.sqlite in the folder \
            $XDG_CACHE_HOME/dbb-demo, or ~/.cache/dbb-demo when XDG_CACHE_HOME is not \
            set, unless --database names another. With --postgres the same table objects \
            and the same report live in a PostgreSQL database instead: the manager installs \
            the locale functions there (strftime's column is computed with to_char).

            --copy-from moves the demo's table objects, with their ids and relations, from \
            another demo database (a file, or a postgres:// URL) into an empty one.

            --chart also draws the weekly report as an SVG picture: value per visit by \
            week, one row of bars per locale and one for strftime, on one axis of days.

            Examples:
              swift run dbb-demo                      # the default database
              swift run dbb-demo --database demo.sqlite   # a database of your choice
              swift run dbb-demo --reset              # start over with fresh data
              swift run dbb-demo --chart weekly.svg   # and the weekly report as a picture
              swift run --traits Postgres dbb-demo \\
                  --postgres postgres://me:secret@localhost/demo
              swift run --traits Postgres dbb-demo \\
                  --postgres postgres://me:secret@localhost/demo \\
                  --copy-from ~/.cache/dbb-demo/dbb-demo.sqlite   # SQLite → PostgreSQL
              swift run --traits Postgres dbb-demo --database back.sqlite \\
                  --copy-from postgres://me:secret@localhost/demo  # and back
            """,
        version: DBBBuilderVersion.current)

    @Option(help: "The database file (default: dbb-demo.sqlite in the user's cache folder).")
    var database: String?

    @Option(
        help: ArgumentHelp(
            "A PostgreSQL database instead of a file (needs the package trait Postgres: swift run --traits Postgres).",
            valueName: "postgres://user:password@host:port/database")
    )
    var postgres: String?

    @Flag(
        help:
            "Delete the demo database first and start over (only a dbb-demo database; with --postgres: delete the demo's rows)."
    )
    var reset = false

    @Option(
        help: ArgumentHelp(
            "Copy the demo's table objects from another demo database (a file or a postgres:// URL) into this one, which must be empty.",
            valueName: "file-or-url"))
    var copyFrom: String?

    @Option(
        help: ArgumentHelp(
            "Also write the weekly report as an SVG chart to this file (replaced if it exists).",
            valueName: "file.svg"))
    var chart: String?

    static let classes: [DBBTableObject.Type] = [Person.self, Company.self, Project.self, Meeting.self, Usage.self]

    func validate() throws {
        if postgres != nil && database != nil {
            throw ValidationError("--database and --postgres name two databases: give one")
        }
        if let database, Self.isURL(database) {
            throw ValidationError("--database takes a file path; give a PostgreSQL URL with --postgres")
        }
        // Never a file: a path here would otherwise be opened, and changed, as a SQLite database.
        // The value is not shown, as it may hold a password.
        if let postgres, !Self.isURL(postgres) {
            throw ValidationError(
                "--postgres takes a PostgreSQL URL (postgres://user:password@host/database); give a file with --database"
            )
        }
        if let chart {
            try ChartFile.check(chart, database: postgres == nil ? try database ?? DefaultDatabase.url().path : nil)
        }
    }

    func run() async throws {
        // The source first: a source that cannot be opened leaves no new destination behind.
        let source = try copyFrom.map(Self.manager)  // read, never changed
        if let source, let copyFrom {
            try UsageData.refuseOlderTable(in: source, named: "\(Self.display(copyFrom)) (--copy-from)")
        }
        let (manager, place) = try open()
        try UsageData.refuseOlderTable(in: manager, named: place)
        try manager.register(Self.classes)
        var state: String
        if let copyFrom, let source {
            let copied = try manager.copyTables(of: Self.classes, from: source)
            state = "copied \(copied.values.reduce(0, +)) rows from \(Self.display(copyFrom))"
        } else if try manager.count(of: "Person") == 0 {
            try DemoData.save(into: manager)
            state = "new data saved"
        } else {
            state = "data from an earlier run; --reset starts over"
        }
        try UsageData.fillIfEmpty(manager)
        print("Database: \(place) (\(state))\n")
        try await Tour.show(manager)
        let (from, to) = (WeeklyReport.defaultFrom, WeeklyReport.defaultTo)
        let series = try WeeklyReport.comparison(locales: WeeklyReport.defaultLocales, in: manager, from: from, to: to)
        WeeklyTable.show(series, from: from, to: to)
        if let chart {
            try ChartFile.write(WeeklyChart(series: series, from: from, to: to).svg, to: chart)
            print("\nChart: \(DefaultDatabase.display(chart))")
        }
    }

    /// The demo's database, emptied first with `--reset`, and how to show it.
    private func open() throws -> (DBBManager, String) {
        if let postgres {
            let manager = try Self.manager(postgres)
            if reset {
                // An older demo's Usage table (unquoted, so `usage` here) goes too.
                try manager.execute("DROP TABLE IF EXISTS usage")
                try manager.register(Self.classes)
                for type in Self.classes { try type.deleteAll(manager: manager) }
            }
            return (manager, Self.display(postgres))
        }
        let url = try database.map { URL(fileURLWithPath: $0) } ?? DefaultDatabase.url()
        if reset && FileManager.default.fileExists(atPath: url.path) {
            guard Self.isDemoDatabase(url) else {
                throw ValidationError(
                    "\(DefaultDatabase.display(url.path)) is not a dbb-demo database (it has no Person and Meeting "
                        + "tables): --reset deletes only the demo's own database")
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        return (try DBBManager(url: url), DefaultDatabase.display(url.path))
    }

    /// A manager on a file path or a URL (`postgres://`; any other scheme is refused, its
    /// password not shown).
    static func manager(_ place: String) throws -> DBBManager {
        if isURL(place) { return try postgresManager(place) }
        guard FileManager.default.fileExists(atPath: place) else {
            throw ValidationError("no database file at \(display(place))")
        }
        return try DBBManager(url: URL(fileURLWithPath: place))
    }

    /// Whether `place` is a URL (`scheme://…`, or a mistyped `postgres:/…`) rather than a file path.
    static func isURL(_ place: String) -> Bool { DatabasePlace.isURL(place) }

    /// Whether the file at `url` is a demo database: SQLite, with the demo's Person and Meeting tables.
    static func isDemoDatabase(_ url: URL) -> Bool {
        var configuration = SQLiteConfiguration()
        configuration.access = .readOnly
        configuration.journalMode = nil
        guard let connection = try? SQLiteConnection(path: url.path, configuration: configuration),
            let tables = try? connection.fetchAll(
                "SELECT name FROM sqlite_master WHERE type = 'table'", [], { $0.string(at: 0) ?? "" })
        else { return false }
        return tables.contains("Person") && tables.contains("Meeting")
    }

    /// A file path with `~` for the home folder, or a URL without its password.
    static func display(_ place: String) -> String {
        isURL(place) || place.contains("@")
            ? withoutPassword(place) : DefaultDatabase.display(place)
    }
}
