import ArgumentParser
import DBBCodeGen
import Foundation

extension CodeGenCommand {
    /// `--convert FILE… [--in-place | --output-dir DIR | --output FILE] [--check]
    /// [--allow-unconverted]`: the files are read together and converted; nothing is written
    /// before every file is read, and each file is written whole (atomically).
    func convertFiles() throws {
        try checkConvertOptions()
        var sources: [ConversionSource] = []
        for path in inputs {
            if path == "-" {
                let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                sources.append(ConversionSource(path: "stdin", text: text))
            } else {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ValidationError("cannot read \(path)")
                }
                sources.append(ConversionSource(path: path, text: text))
            }
        }
        let results = DBBBuilderConverter.convert(sources)
        let issues = results.flatMap(\.issues)
        for issue in issues { report(issue.description) }
        let changed = results.filter(\.changed)
        if check {
            for result in changed {
                report("\(result.path): would convert \(result.convertedClasses.joined(separator: ", "))")
            }
        } else if inPlace {
            for result in changed {
                try Data(result.converted.utf8).write(to: URL(fileURLWithPath: result.path), options: .atomic)
            }
        } else if let outputDir {
            try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            for result in results {
                let name = URL(fileURLWithPath: result.path).lastPathComponent
                try Data(result.converted.utf8).write(
                    to: URL(fileURLWithPath: outputDir).appendingPathComponent(name), options: .atomic)
            }
        } else if let result = results.first {
            try write(result.converted, to: output)
        }
        let classes = results.reduce(0) { $0 + $1.convertedClasses.count }
        let left = Set(issues.map { "\($0.path) \($0.className)" }).count
        report(
            "dbb-codegen: \(check ? "would convert" : "converted") \(classes) class\(classes == 1 ? "" : "es") in "
                + "\(changed.count) file\(changed.count == 1 ? "" : "s")"
                + (left > 0 ? "; \(left) left as \(left == 1 ? "it was" : "they were") (see above)" : ""))
        if (left > 0 && !allowUnconverted) || (check && !changed.isEmpty) { throw ExitCode.failure }
    }

    private func checkConvertOptions() throws {
        guard !inputs.isEmpty else {
            throw ValidationError(
                "--convert takes the Swift files to convert: dbb-codegen --convert Models/*.swift --in-place")
        }
        if className != nil || fromDatabase != nil {
            throw ValidationError("--convert reads classes from Swift files: --class and --from-database do not apply")
        }
        let destinations = [inPlace, outputDir != nil, output != nil].filter { $0 }.count
        if destinations > 1 { throw ValidationError("--in-place, --output-dir and --output exclude each other") }
        if check && destinations > 0 {
            throw ValidationError("--check writes nothing: leave out --in-place, --output-dir and --output")
        }
        if !check && destinations == 0 && inputs.count > 1 {
            throw ValidationError("several files are written with --in-place or --output-dir, or checked with --check")
        }
        if output != nil && inputs.count > 1 {
            throw ValidationError("--output takes one converted file; use --output-dir")
        }
        if inPlace && inputs.contains("-") { throw ValidationError("standard input cannot be converted in place") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input can be read once") }
        if outputDir != nil {
            var seen: [String: String] = [:]
            for path in inputs {
                let name = path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent
                if let first = seen[name] {
                    throw ValidationError("\(first) and \(path) would both be written as \(name) in --output-dir")
                }
                seen[name] = path
            }
        }
    }

    private func report(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }
}
