import DBBSQLite
import DBBScript
import DBBTestSupport
import Foundation
import Testing

/// A corpus of build scripts run both by `dbb build` and by the sqlite3 shell: the databases
/// must be the same, down to the header settings; scripts the shell refuses are refused too.
@Suite(
    "sqlite3 parity: a script builds what the sqlite3 shell builds",
    .enabled(if: ScriptFixture.sqlite3 != nil, "the sqlite3 command-line shell is not installed"))
struct ShellParityTests {
    /// The seed article's script (`shared/seeds/004_*.txt`), as its author meant it: straight quotes.
    static let seedArticle = """
        CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);

        CREATE TABLE "version" ("ver" INTEGER);

        .mode csv

        .separator |

        .import food.csv food

        CREATE INDEX idx_food_pk ON food ("pk" ASC);

        INSERT INTO version (ver) VALUES ("2");
        """

    /// The same, letter for letter as the seed prints it: typographic quotes, which SQLite
    /// takes for part of the names, so the shell fails on it.
    static let seedArticleLiteral =
        seedArticle
        .replacingOccurrences(of: "\"food\"", with: "“food”").replacingOccurrences(of: "\"pk\"", with: "“pk”")
        .replacingOccurrences(of: "\"group\"", with: "“group”").replacingOccurrences(of: "\"name\"", with: "“name”")
        .replacingOccurrences(of: "\"desc\"", with: "“desc”").replacingOccurrences(of: "\"version\"", with: "“version”")
        .replacingOccurrences(of: "\"ver\"", with: "“ver”").replacingOccurrences(of: "\"2\"", with: "“2”")

    static let dataFiles: [String: String] = [
        "food.csv": "1|10|Apple|\"crisp, red\"\n2|20|Bread|white\n",
        "seed.csv": ScriptRunnerTests.seedData,
        "list.txt": "a|b\n\"x|y\"|z\n1|\n\"say \"\"hi\"\"\"|2\n",
        "tabs.txt": "a\tb\n1\t2\n",
        "ascii.txt": "a\u{1F}b\u{1E}1\u{1F}\"q\"\u{1E}",
        "crlf.csv": "h1,h2\r\n1,\"a\r\nb\"\r\n2,c\r\n",
        "bom.csv": "\u{FEFF}k,v\n1,one\n",
        "part.sql": "INSERT INTO parts VALUES (1);\r\n.mode csv\r\n.import bom.csv frompart\r\n",
        "wide.csv": "a,b,,d,e,f,g,h,\"select\",\"q\"\"r\"\n1,2,3,4,5,6,7,8,9,10\n",
    ]

    /// Data files that are not UTF-8: a Latin-1 spreadsheet export.
    static let byteFiles: [String: [UInt8]] = [
        "latin1.csv": Array("name,city\ncaf".utf8) + [0xE9] + Array(",K".utf8) + [0xF6, 0x6C, 0x6E, 0x0A],
        "nul.csv": Array("a".utf8) + [0] + Array("z,b\nx".utf8) + [0] + Array("y,2\n".utf8),
    ]

    /// Scripts the shell runs without a word on standard error.
    static let corpus: [String: String] = [
        "the seed's schema": ScriptRunnerTests.seedSchema.replacingOccurrences(of: "food.csv", with: "seed.csv"),
        "the seed article's script": seedArticle,
        "comments before dot commands": """
        -- The schema
        CREATE TABLE t (a, b);
        -- pipe-separated data follows
        .separator |
        /* a block comment */
        .import food.csv t4
        /* a block
           over lines */
        .mode csv
        # a hash comment
        .import crlf.csv t
        """,
        "CRLF line ends": ScriptRunnerTests.seedSchema.replacingOccurrences(of: "food.csv", with: "seed.csv")
            .replacingOccurrences(of: "\n", with: "\r\n") + "\r\n",
        "VACUUM": "CREATE TABLE t (x);\nINSERT INTO t VALUES (1), (2);\nDELETE FROM t WHERE x = 1;\nVACUUM;\n",
        "the script's own transactions": """
        CREATE TABLE t (x);
        BEGIN;
        INSERT INTO t VALUES (1);
        ROLLBACK;
        BEGIN TRANSACTION; INSERT INTO t VALUES (2); COMMIT TRANSACTION;
        SAVEPOINT s; INSERT INTO t VALUES (3); RELEASE s;
        BEGIN IMMEDIATE; INSERT INTO t VALUES (4); END;
        """,
        "header pragmas and WAL": """
        PRAGMA page_size = 8192;
        PRAGMA auto_vacuum = FULL;
        PRAGMA journal_mode = WAL;
        PRAGMA user_version = 7;
        PRAGMA application_id = 1234;
        CREATE TABLE t (x);
        INSERT INTO t VALUES (1);
        """,
        "page size changed by VACUUM": "CREATE TABLE t (x);\nPRAGMA page_size = 16384;\nVACUUM;\n",
        "UTF-16 encoding": "PRAGMA encoding = 'UTF-16le';\nCREATE TABLE t (x TEXT);\nINSERT INTO t VALUES ('héllo');\n",
        "foreign keys off, as in the shell": """
        CREATE TABLE p (id INTEGER PRIMARY KEY);
        CREATE TABLE c (p INTEGER REFERENCES p(id));
        INSERT INTO c VALUES (99);
        """,
        "statement shapes": """
        CREATE TABLE t (x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);
        INSERT INTO t
        -- a comment inside
        VALUES ('a;b
        c');
        INSERT INTO t VALUES (3) -- no semicolon yet
        ;
        INSERT INTO t VALUES (4)
        go
        INSERT INTO t VALUES (5)
          /
        CREATE TABLE [odd;name] ("x;y" TEXT, `z` TEXT); -- a comment after
        INSERT INTO [odd;name] VALUES ('/*', '--');
        INSERT INTO t VALUES ("a double-quoted string");
        INSERT INTO t VALUES (6)
        """,
        "a byte order mark": "\u{FEFF}CREATE TABLE t (x);\nINSERT INTO t VALUES (1);\n",
        ".exit ends the script": "CREATE TABLE t (x);\n.exit\nCREATE TABLE u (y);\n",
        "import modes": """
        .import list.txt fromlist
        .mode tabs
        .import tabs.txt fromtabs
        .mode ascii
        .import ascii.txt fromascii
        .mode list
        CREATE TABLE fromcsv (h1, h2);
        .import --csv --skip 1 crlf.csv fromcsv
        .mode csv
        .import bom.csv frombom
        .sep ;
        .mode list
        .headers on
        .nullvalue NULL
        .schema
        .tables
        .bail on
        .print printed, not stored
        """,
        ".read with CRLF": "CREATE TABLE parts (n);\n.read part.sql\nINSERT INTO parts VALUES (2);\n",
        "a header of ten columns, one empty, one a keyword": ".mode csv\n.import wide.csv wide\n",
        "a persistent journal, .read of an empty device, .quit with an argument": """
        PRAGMA journal_mode = PERSIST;
        CREATE TABLE t (x);
        .read /dev/null
        INSERT INTO t VALUES (1);
        .quit 1
        INSERT INTO t VALUES (2);
        """,
    ]

    /// Scripts whose bytes matter: text that is not UTF-8, NUL bytes.
    static let byteCorpus: [String: [UInt8]] = [
        "Latin-1 data and literals": Array(".mode csv\n.import latin1.csv people\nINSERT INTO people VALUES ('".utf8)
            + [0xFF, 0xFE, 0xC3] + Array("', 'x');\n".utf8),
        "a NUL byte ends a header name and a field, as in the shell": Array(".mode csv\n.import nul.csv t\n".utf8),
        "a NUL byte ends a line, as in the shell": Array("CREATE TABLE t (a);\nINSERT INTO t VALUES (1);".utf8) + [0]
            + Array(" DROP TABLE t;\nCREATE TABLE u (b);".utf8) + [0]
            + Array("garbage\nINSERT INTO t VALUES (2);\n".utf8),
    ]

    /// Scripts the shell refuses, the message of its first error, and the line `dbb build` names.
    static let refused: [String: (script: String, message: String, line: Int)] = [
        "COMMIT with no transaction": (
            "CREATE TABLE t (x);\nBEGIN;\nINSERT INTO t VALUES (1);\nCOMMIT;\nCOMMIT;\n",
            "cannot commit - no transaction is active", 5
        ),
        "foreign keys turned on by the script": (
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE p (id INTEGER PRIMARY KEY);
            CREATE TABLE c (p INTEGER REFERENCES p(id));
            INSERT INTO c VALUES (99);
            """, "FOREIGN KEY constraint failed", 4
        ),
        "the seed article's script, typographic quotes and all": (seedArticleLiteral, "no such column: “pk”", 11),
        "a missing table, on the statement's second line": (
            "CREATE TABLE a (x);\nINSERT INTO\n  missing VALUES (2);\n",
            "no such table: missing", 2
        ),
        "a syntax error on the third line of a statement": (
            "CREATE TABLE a (x);\nSELECT 1,\n  2,\n  3 4;\n",
            "near \"4\": syntax error", 4
        ),
    ]

    private static func prepare(_ fixture: ScriptFixture) throws {
        for (name, text) in dataFiles { try fixture.file(name, text) }
        for (name, bytes) in byteFiles { try fixture.file(name, bytes: bytes) }
    }

    /// `.dump` and the header settings of a database, read by the shell, as the bytes it
    /// prints (text that is not UTF-8 must compare byte for byte).
    private static func fingerprint(_ sqlite3: URL, _ database: URL) throws -> Data {
        let pragmas = ["page_size", "journal_mode", "user_version", "application_id", "auto_vacuum", "encoding"]
            .map { "SELECT '\($0)=' || (SELECT * FROM pragma_\($0));" }.joined(separator: "\n")
        let process = Process()
        process.executableURL = sqlite3
        process.arguments = [database.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((pragmas + "\n.dump\n").utf8))
        try input.fileHandleForWriting.close()
        let (status, data) = ChildOutput.collect(process, [output])
        #expect(status == 0)
        return data[0]
    }

    @Test(
        "every script of the corpus builds the database the shell builds: .dump and header pragmas",
        arguments: corpus.keys.sorted() + byteCorpus.keys.sorted())
    func sameDatabase(_ name: String) throws {
        let sqlite3 = try #require(ScriptFixture.sqlite3)
        let bytes = try #require(Self.corpus[name].map { Array($0.utf8) } ?? Self.byteCorpus[name])
        let fixture = try ScriptFixture()
        try Self.prepare(fixture)
        let script = try fixture.file("script.txt", bytes: bytes)
        let ours = fixture.directory.url.appendingPathComponent("ours.sqlite")
        let theirs = fixture.directory.url.appendingPathComponent("theirs.sqlite")
        let shell = try ScriptFixture.run(sqlite3, [theirs.path, ".read script.txt"], in: fixture.directory.url)
        #expect(shell.status == 0 && shell.stderr.isEmpty, "sqlite3 runs the script cleanly: \(shell.stderr)")
        try DBBScriptRunner.build(script: script, output: ours)
        let expected = try Self.fingerprint(sqlite3, theirs)
        #expect(try Self.fingerprint(sqlite3, ours) == expected)
        #expect(expected.range(of: Data("CREATE TABLE".utf8)) != nil, "the comparison saw a schema")
        let leftovers = try fixture.directory.fileNames().filter { $0.hasPrefix(".") || $0.hasPrefix("ours.sqlite-") }
        #expect(leftovers.isEmpty, "no temporary or log files are left: \(leftovers)")
    }

    @Test(
        "a script the shell refuses is refused, naming the line and the shell's message",
        arguments: refused.keys.sorted())
    func sameRefusal(_ name: String) throws {
        let sqlite3 = try #require(ScriptFixture.sqlite3)
        let (text, message, line) = try #require(Self.refused[name])
        let fixture = try ScriptFixture()
        try Self.prepare(fixture)
        let script = try fixture.file("script.txt", text)
        let shell = try ScriptFixture.run(
            sqlite3, ["-bail", fixture.directory.url.appendingPathComponent("theirs.sqlite").path],
            input: text, in: fixture.directory.url)
        #expect(shell.status != 0 && shell.stderr.contains(message), "the shell refuses it too: \(shell.stderr)")
        #expect {
            try DBBScriptRunner.build(script: script, output: fixture.output)
        } throws: { error in
            let error = try #require(error as? DBBScriptError)
            return error.kind == .script && error.line == line && error.message.contains(message)
                && error.description.hasPrefix("script.txt:\(line): ")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
        #expect(try fixture.directory.fileNames().allSatisfy { !$0.hasPrefix(".") }, "no temporaries left")
    }

    @Test("a transaction the script leaves open is an error naming where it began")
    func openTransaction() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.file("s.txt", "CREATE TABLE t (x);\n\nBEGIN;\nINSERT INTO t VALUES (1);\n")
        #expect {
            try DBBScriptRunner.build(script: script, output: fixture.output)
        } throws: { error in
            let error = try #require(error as? DBBScriptError)
            return error.line == 3 && error.message.contains("still open at the end of the script")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
    }

    @Test("import data the shell only warns about is refused with file:line")
    func importStrictness() throws {
        let fixture = try ScriptFixture()
        try fixture.file("open.csv", "a,b\n1,\"never\nclosed\n")
        try fixture.file("stray.csv", "a,b\n1,2\n\"x\"y,3\n")
        for (file, line, fragment) in [("open.csv", 2, "is not closed"), ("stray.csv", 3, "goes on after its closing")]
        {
            let script = try fixture.file("s.txt", ".mode csv\n.import \(file) t\n")
            #expect {
                try DBBScriptRunner.build(script: script, output: fixture.output)
            } throws: { error in
                let error = try #require(error as? DBBScriptError)
                return error.line == 2 && error.dataFile == file && error.row == line
                    && error.message.contains(fragment)
            }
        }
    }

    @Test("repeated header names are renamed as the shell renames them")
    func repeatedHeaderNames() throws {
        let sqlite3 = try #require(ScriptFixture.sqlite3)
        let fixture = try ScriptFixture()
        try fixture.file("dups.csv", "a,b,a,a_1,,\n1,2,3,4,5,6\n")
        try fixture.file("case.csv", "x,X,x\n1,2,3\n")
        try fixture.file(
            "empty.csv",
            String(repeating: ",", count: 10) + "\n" + (1...11).map(String.init).joined(separator: ",") + "\n")
        try fixture.file(
            "many.csv",
            (["a_1"] + Array(repeating: "a", count: 11)).joined(separator: ",") + "\n"
                + (1...12).map(String.init).joined(separator: ",") + "\n")
        let text =
            ".mode csv\n.import dups.csv dups\n.import case.csv folded\n.import empty.csv empty\n.import many.csv many\n"
        let script = try fixture.file("s.txt", text)
        let theirs = fixture.directory.url.appendingPathComponent("theirs.sqlite")
        _ = try ScriptFixture.run(sqlite3, [theirs.path], input: text, in: fixture.directory.url)  // it warns on stderr
        try DBBScriptRunner.build(script: script, output: fixture.output)
        #expect(try Self.fingerprint(sqlite3, fixture.output) == Self.fingerprint(sqlite3, theirs))
    }
}
