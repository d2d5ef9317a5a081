import DBBBuilder
import Foundation

/// One facet's visits on one day: the rows the weekly "value per visit" report reads (see
/// ``WeeklyReport``). The demo and the example service register it like their other classes;
/// ``UsageData`` fills its table with the same year of visits every time.
@DBBTable
public final class Usage: DBBTableObject {
    /// The part of the site visited: `search`, `browse` or `ads`.
    public var facetID = ""
    /// What the day's visits of the facet were worth.
    public var value = 0
    /// How many visits the facet had that day.
    public var visits = 0
    /// The day, at midnight UTC.
    @Indexed public var day: Date = Date(timeIntervalSinceReferenceDate: 0)
}
