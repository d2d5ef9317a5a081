import Foundation

/// A screenshot's pixels, decoded from its PNG by a short Python script (zlib and the PNG row
/// filters: Python's standard library has the one, the script the other; Foundation on Linux
/// has no zlib).
struct Screenshot {
    let width: Int
    let height: Int
    /// Red, green, blue per pixel, row by row.
    let pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The pixels of the PNG at `file`, decoded by `python3` (found on PATH).
    init(png file: URL, python: URL) throws {
        let script = file.deletingLastPathComponent().appendingPathComponent("png-to-rgb.py")
        try Self.decoder.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, file.path]
        let raw = file.deletingLastPathComponent().appendingPathComponent("screenshot.rgb")
        _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: raw)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 could not decode \(file.path)")
        }
        let data = try Data(contentsOf: raw)
        let newline = data.firstIndex(of: 10) ?? data.endIndex
        let size = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard size.count == 2, newline < data.endIndex else { throw Failure(description: "the decoder wrote no size") }
        (width, height) = (size[0], size[1])
        pixels = Array(data[(newline + 1)...])
        guard pixels.count == width * height * 3 else { throw Failure(description: "the decoder wrote too few pixels") }
    }

    /// `python3` on PATH; `nil` where there is none.
    static func python() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: "\($0)/python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The longest run of pixels of `color` (`#rrggbb`, each channel within `tolerance`) down
    /// the column `x` between rows `top` and `bottom`.
    func longestRun(of color: String, x: Int, top: Int = 0, bottom: Int? = nil, tolerance: Int = 12) -> Int {
        let hex = Int(color.dropFirst(), radix: 16) ?? 0
        let target = [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255]
        var (longest, run) = (0, 0)
        guard (0..<width).contains(x) else { return 0 }
        for y in max(top, 0)..<min(bottom ?? height, height) {
            let offset = (y * width + x) * 3
            let matches = (0..<3).allSatisfy { abs(Int(pixels[offset + $0]) - target[$0]) <= tolerance }
            run = matches ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// Decodes an 8-bit RGB or RGBA PNG, not interlaced (what Chromium writes), to a line
    /// `WIDTH HEIGHT` and then three bytes per pixel, on standard output.
    static let decoder = #"""
        import struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat, header = 8, b"", None
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR": header = struct.unpack(">IIBBBBB", chunk)
            elif kind == b"IDAT": idat += chunk
            pos += 12 + length
        width, height, depth, color, _, _, interlace = header
        assert depth == 8 and color in (2, 6) and interlace == 0, "only 8-bit RGB/RGBA, not interlaced"
        step = 3 if color == 2 else 4
        raw, stride = zlib.decompress(idat), width * step
        rows, previous, pos = [], bytearray(stride), 0
        for _ in range(height):
            kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
            pos += 1 + stride
            for i in range(stride):
                a = line[i - step] if i >= step else 0
                b = previous[i]
                c = previous[i - step] if i >= step else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(bytes(line[j] for j in range(stride) if j % step < 3))
            previous = line
        sys.stdout.buffer.write(b"%d %d\n" % (width, height) + b"".join(rows))
        """#
}
