import Foundation

/// A Swift source file given to ``DBBBuilderConverter``: its path (for reports) and its text.
public struct ConversionSource: Sendable {
    /// The path the report names (`Models/Person.swift`, or `stdin`).
    public let path: String
    /// The file's text.
    public let text: String

    /// A file to convert: `path` names it in reports (and is not read).
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// What ``DBBBuilderConverter`` did to one file: its new text, the classes it converted and
/// the ones it left as they were, each with the reason.
public struct ConversionResult: Sendable {
    /// The file's path, as given.
    public let path: String
    /// The file's text before the conversion.
    public let original: String
    /// The file's text after it: the same as ``original`` when nothing was converted.
    public let converted: String
    /// The classes now marked `@DBBTable`, in the file's order.
    public let convertedClasses: [String]
    /// What was left unconverted, and why.
    public let issues: [ConversionIssue]

    /// Whether the conversion changed the file.
    public var changed: Bool { converted != original }
}

/// A class (or a whole file) the converter left as it was, with the place and the reason.
public struct ConversionIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file's path, as given.
    public let path: String
    /// The line (1-based) of the declaration or expression in the way.
    public let line: Int
    /// Its column (1-based, in UTF-8 bytes as compilers count them).
    public let column: Int
    /// The class left unconverted; empty when the whole file was (it does not parse).
    public let className: String
    /// Why, and what to change.
    public let reason: String

    /// An issue at `line`:`column` of `path`; `className` empty for the whole file.
    public init(path: String, line: Int, column: Int, className: String, reason: String) {
        self.path = path
        self.line = line
        self.column = column
        self.className = className
        self.reason = reason
    }

    /// `path:line:column: Class not converted: reason`, the form editors link to the place.
    public var description: String {
        let subject = className.isEmpty ? "file not converted" : "\(className) not converted"
        return "\(path):\(line):\(column): \(subject): \(reason)"
    }
}
