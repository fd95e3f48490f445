/// The interactive report (`docs/rendering.md`): it draws the whole trace, not the findings
/// alone, so the page comes from ``FindingsFormatOptions/page``, made with the same
/// analysis, rule selection and baseline as every other format.
public struct HTMLFormat: FindingsFormat {
    public let name = "html"

    public init() {}

    public func render(_ report: CheckReport, _ options: FindingsFormatOptions) throws -> String {
        try options.page()
    }
}
