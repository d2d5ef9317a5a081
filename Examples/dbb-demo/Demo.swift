import ArgumentParser
import DBBBuilder
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
            set, unless --database names another.

            Examples:
              swift run dbb-demo                      # the default database
              swift run dbb-demo --database demo.sqlite   # a database of your choice
              swift run dbb-demo --reset              # start over with fresh data
            """)

    @Option(help: "The database file (default: dbb-demo.sqlite in the user's cache folder).")
    var database: String?

    @Flag(help: "Delete the database first and start over.")
    var reset = false

    func run() async throws {
        let url = try database.map { URL(fileURLWithPath: $0) } ?? DefaultDatabase.url()
        if reset {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        let manager = try DBBManager(url: url)
        try manager.register([Person.self, Company.self, Project.self, Meeting.self])
        let fresh = try manager.count(of: "Person") == 0
        if fresh {
            try DemoData.save(into: manager)
            try UsageData.fill(manager)
        }
        print("Database: \(DefaultDatabase.display(url.path)) (\(fresh ? "new data saved" : "data from an earlier run; --reset starts over"))\n")
        try await Tour.show(manager)
        try WeeklyReport.show(manager)
    }
}
