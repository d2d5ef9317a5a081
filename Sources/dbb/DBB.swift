import ArgumentParser
import DBBCore
import DBBSQLite

@main
struct DBB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbb",
        abstract: "Build SQLite databases from schema scripts and CSV files, and query them.",
        discussion: """
            Examples:
              dbb build food.sqlite schema.txt           # run schema.txt into food.sqlite
              dbb build food.sqlite schema.txt --force   # replace it once built
              dbb sql food.sqlite "SELECT count(*) FROM food"
              dbb sql user.sqlite --attach ref=food.sqlite \\
                "SELECT * FROM meal JOIN ref.food USING (foodID)"
              echo "SELECT dbb_week('2011-01-02', 'en_US')" | dbb sql food.sqlite

            'dbb help build' and 'dbb help sql' tell more.
            """,
        version: DBBBuilderVersion.current,
        subcommands: [BuildCommand.self, SQLCommand.self])
}

/// An error for the terminal: its description is the whole message.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
