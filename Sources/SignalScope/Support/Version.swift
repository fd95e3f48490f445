/// SignalScope's version: what `signalscope --version` prints and the CHANGELOG's latest
/// entry. The package is not tagged yet; until it is, depend on it with `branch: "main"`.
public enum SignalScopeVersion {
    /// The version, semantic versioning.
    public static let current = "0.1.0"
}
