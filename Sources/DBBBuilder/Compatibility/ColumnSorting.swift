/// Sort directions for ``DBBQueryOptions/sorting``, as DBBBuilder spelled them.
public enum ColumnSorting {
    /// Ascending order (the default).
    public static let ascending = "ASC"
    /// Descending order: put this in the sorting array to sort every column descending.
    public static let descending = "DESC"
}
