/// A result row of one scenario run one way, with the figure its ratios compare (time or
/// instructions per operation): what the tables and the targets of both modes share.
protocol VariantRow {
    var scenario: String { get }
    var variant: String { get }
    var figure: Double { get }
}

extension Measurement: VariantRow {
    var figure: Double { nsPerOp }
}

extension InstructionMeasurement: VariantRow {
    var figure: Double { instructionsPerOp }
}

extension Array where Element: VariantRow {
    /// The figure of `scenario` run as `variant`, if it was measured.
    func figure(_ scenario: String, _ variant: Variant) -> Double? {
        first { $0.scenario == scenario && $0.variant == variant.rawValue }?.figure
    }

    /// `top` over `bottom` for each of `scenarios` that has both.
    func ratios(_ scenarios: [String], _ top: Variant, _ bottom: Variant) -> [(String, Double)] {
        scenarios.compactMap { scenario in
            guard let numerator = figure(scenario, top), let denominator = figure(scenario, bottom) else { return nil }
            return (scenario, numerator / denominator)
        }
    }

    /// `row`'s figure over that of its scenario run as `variant`, for a table cell: empty
    /// for that row itself, or when it was not measured.
    func ratioText(of row: Element, to variant: Variant) -> String {
        guard row.variant != variant.rawValue, let base = figure(row.scenario, variant) else { return "" }
        return Format.number(row.figure / base)
    }
}

extension Target {
    /// A target judged on `figures`, each shown with `suffix`; `nil` when none was measured.
    init?(_ name: String, _ figures: [(String, Double)], suffix: String = "×", _ isMet: (Double) -> Bool) {
        guard !figures.isEmpty else { return nil }
        self.init(
            name: name, met: figures.allSatisfy { isMet($0.1) },
            measured: figures.map { "\($0.0) \(Format.number($0.1))\(suffix)" }.joined(separator: ", "))
    }
}
