import Foundation

/// SVG text written element by element, every attribute value and text escaped.
struct SVGWriter {
    private(set) var text = ""
    private var depth = 0

    /// `<name a="…">` on a line of its own; ``close(_:)`` ends it.
    mutating func open(_ name: String, _ attributes: [(String, String)]) {
        line("<\(name)\(Self.attributes(attributes))>")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        line("</\(name)>")
    }

    /// `<name a="…">text</name>`, or `<name a="…"/>` without text.
    mutating func element(_ name: String, _ attributes: [(String, String)], text content: String? = nil) {
        if let content {
            line("<\(name)\(Self.attributes(attributes))>\(Markup.escape(content))</\(name)>")
        } else {
            line("<\(name)\(Self.attributes(attributes))/>")
        }
    }

    private mutating func line(_ content: String) {
        text += String(repeating: "  ", count: depth) + content + "\n"
    }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(Markup.escape($0.1))\"" }.joined()
    }

    /// A coordinate with at most two decimals: `12`, `12.5`, `12.34`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
    }

    /// `value` with `places` decimals, as a label shows it: `3.41`.
    static func decimal(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }
}
