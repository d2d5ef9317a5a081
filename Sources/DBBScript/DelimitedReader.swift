import Foundation

/// Reads the records of a data file for `.import` field by field, the way the sqlite3 shell
/// (3.40) does, from a buffered file descriptor.
///
/// Two readers, as in the shell: the quoting one (every mode but ascii): a field that starts
/// with `"` runs to the `"` that is followed by a separator or the end (`""` inside is one
/// `"`), an unquoted field loses a `\r` before the row separator, and a UTF-8 byte order mark
/// before the first field is skipped; and the plain one (`.mode ascii`, `--ascii`), which
/// splits on the separators and nothing else. Where the shell only warns (a quote left open
/// at the end of the file, a stray quote after a quoted field) this reader throws.
struct DelimitedReader: ~Copyable {
    /// Why a record could not be read.
    enum Failure: Error {
        /// A quoted field that starts on `line` is still open at the end of the file.
        case unterminatedQuote(line: Int)
        /// A quoted field is followed by something other than a separator, on `line`.
        case strayQuote(line: Int)
        /// `read(2)` failed.
        case readFailed(errno: Int32)
    }

    private let descriptor: Int32
    private let columnSeparator: UInt8
    private let rowSeparator: UInt8
    private let quoting: Bool

    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private var position = 0
    private var filled = 0
    private var atEnd = false
    private var seenFirstField = false

    /// The bytes of the last record's fields, one after the other, and where each one ends.
    private(set) var recordBytes: [UInt8] = []
    private(set) var fieldEnds: [Int] = []

    /// The line (1-based, counting row separators) the reader is on.
    private(set) var line = 1
    /// Bytes consumed so far.
    private(set) var bytesRead: Int64 = 0

    /// - Parameters:
    ///   - descriptor: an open file, read to its end and not closed here.
    ///   - quoting: `false` for the shell's ascii reader.
    init(descriptor: Int32, columnSeparator: UInt8, rowSeparator: UInt8, quoting: Bool) {
        self.descriptor = descriptor
        self.columnSeparator = columnSeparator
        self.rowSeparator = rowSeparator
        self.quoting = quoting
        buffer = .allocate(capacity: 1 << 16)
    }

    deinit { buffer.deallocate() }

    /// Reads the next record; returns the line it starts on, or `nil` at the end of the file.
    /// Its fields are then ``field(_:)`` for `0 ..< fieldEnds.count`.
    mutating func nextRecord() throws -> Int? {
        recordBytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        let startLine = line
        while true {
            guard let terminator = try readField() else {
                // The end of the file at the start of a field: after a column separator, an
                // empty last field.
                if fieldEnds.isEmpty { return nil }
                fieldEnds.append(recordBytes.count)
                return startLine
            }
            fieldEnds.append(recordBytes.count)
            if terminator != Int(columnSeparator) { return startLine }
        }
    }

    /// The bytes of field `index` of the last record.
    func field(_ index: Int) -> ArraySlice<UInt8> {
        recordBytes[(index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]]
    }

    /// Reads one field onto the end of `recordBytes`; returns what ended it (a separator byte,
    /// or -1 for the end of the file), or `nil` when the file ended before the field began.
    private mutating func readField() throws -> Int? {
        let fieldStart = recordBytes.count
        var byte = try next()
        if byte < 0 { return nil }
        let column = Int(columnSeparator)
        let row = Int(rowSeparator)
        if quoting && byte == Int(UInt8(ascii: "\"")) {
            let quote = byte
            let startLine = line
            var previous = 0
            var beforePrevious = 0
            while true {
                byte = try next()
                if byte == row { line += 1 }
                if byte == quote && previous == quote {
                    previous = 0  // "" is one quote: keep the one already appended
                    continue
                }
                if (byte == column && previous == quote) || (byte == row && previous == quote)
                    || (byte == row && previous == Int(UInt8(ascii: "\r")) && beforePrevious == quote)
                    || (byte < 0 && previous == quote)
                {
                    // Drop the closing quote (and a \r after it).
                    while recordBytes.count > fieldStart, let last = recordBytes.popLast(), Int(last) != quote {}
                    seenFirstField = true
                    return byte
                }
                if previous == quote && byte != Int(UInt8(ascii: "\r")) { throw Failure.strayQuote(line: line) }
                if byte < 0 { throw Failure.unterminatedQuote(line: startLine) }
                recordBytes.append(UInt8(byte))
                beforePrevious = previous
                previous = byte
            }
        }
        if quoting && !seenFirstField && byte == 0xEF {
            // A byte order mark before the first field is not data.
            recordBytes.append(0xEF)
            byte = try next()
            if byte == 0xBB {
                recordBytes.append(0xBB)
                byte = try next()
                if byte == 0xBF {
                    seenFirstField = true
                    recordBytes.removeSubrange(fieldStart...)
                    return try readField()
                }
            }
        }
        seenFirstField = true
        while byte >= 0 && byte != column && byte != row {
            recordBytes.append(UInt8(byte))
            byte = try next()
        }
        if byte == row {
            line += 1
            if quoting, recordBytes.count > fieldStart, recordBytes.last == UInt8(ascii: "\r") {
                recordBytes.removeLast()
            }
        }
        return byte
    }

    /// The next byte, or -1 at the end of the file.
    @inline(__always)
    private mutating func next() throws -> Int {
        if position == filled {
            if atEnd { return -1 }
            try refill()
            if position == filled { return -1 }
        }
        let byte = buffer[position]
        position += 1
        bytesRead += 1
        return Int(byte)
    }

    private mutating func refill() throws {
        position = 0
        filled = 0
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                filled = count
                return
            }
            if count == 0 {
                atEnd = true
                return
            }
            if errno != EINTR { throw Failure.readFailed(errno: errno) }
        }
    }
}
