import Foundation

/// A way to write `check`'s findings: what `signalscope check --format NAME` writes, and what
/// a test, a plugin or another tool can write from a ``CheckReport`` without the command.
///
/// A format is one file in this folder and one entry in ``FindingsFormats/all``.
public protocol FindingsFormat: Sendable {
    /// The name `--format` takes.
    var name: String { get }
    /// Whether the format can paint with terminal colours (when it writes to a terminal).
    var usesColor: Bool { get }
    /// Writes `report`.
    func render(_ report: CheckReport, _ options: FindingsFormatOptions) throws -> String
}

extension FindingsFormat {
    public var usesColor: Bool { false }
}

/// What a format may need besides the findings.
public struct FindingsFormatOptions {
    /// Paint with terminal colours (only formats that ``FindingsFormat/usesColor``).
    public var colored: Bool
    /// Makes the interactive report page of the analysed traces, for formats that draw it
    /// (`html`); called at most once per format that asks.
    public var page: () throws -> String

    public init(colored: Bool = false, page: @escaping () throws -> String = { "" }) {
        self.colored = colored
        self.page = page
    }
}

/// Every format `check` can write.
public enum FindingsFormats {
    /// In the order `--help` lists them.
    public static let all: [any FindingsFormat] = [
        TextFormat(), JSONFormat(), JUnitFormat(), SARIFFormat(), GitHubFormat(), HTMLFormat(),
    ]

    /// The format called `name`, if there is one.
    public static func named(_ name: String) -> (any FindingsFormat)? {
        all.first { $0.name == name }
    }
}

/// Encodes a JSON object tree (dictionaries, arrays, strings, numbers) with sorted keys.
func jsonText(_ object: Any) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
}
