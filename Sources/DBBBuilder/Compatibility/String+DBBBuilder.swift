import DBBCore
import Foundation

extension String {
    /// The string as an SQL literal: in single quotes, quotes doubled. `Bud's` → `'Bud''s'`.
    /// Prefer ``DBBQueryOptions/arguments`` to pasting values into conditions.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // DBBBuilder's category name, kept for porting.
    public func dbb_SQLEscaped() -> String {
        SQLQuoting.literal(self)
    }
}
