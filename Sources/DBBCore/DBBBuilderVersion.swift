/// The version of this package, written here and nowhere else.
///
/// `dbb --version`, `dbb-codegen --version` and `dbb-demo --version` print it, and the latest
/// release heading of `CHANGELOG.md` must name it (a test checks both).
public enum DBBBuilderVersion {
    /// The version, as `MAJOR.MINOR.PATCH` ([Semantic Versioning](https://semver.org)).
    public static let current = "1.1.0"
}
