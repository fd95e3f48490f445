import SignalScopeTools

// A reused cell binds its label to each item it shows: without ending the previous binding,
// every item it ever showed keeps writing into it (the cell-reuse trap of the RAC articles).
// The bindings' disposables are owned by the target property, so nothing leaks in memory
// that trial deletion could see: what shows it is that a target is fed by several live
// bindings, the earlier of them for items the cell no longer shows.

final class FeedItem {
    let title: MutableProperty<String>
    init(_ title: String) { self.title = MutableProperty(title) }
}

final class FeedCell {
    let titleText = MutableProperty("")
    let reuse = Subject<Void>()
    var binding: Disposable?

    func configure(with item: FeedItem) { titleText.bind(to: item.title.signal) }

    func configureUntilReuse(with item: FeedItem) { titleText.bind(to: item.title.signal.takeUntil(reuse)) }

    func configureReplacing(with item: FeedItem) {
        binding?.dispose()
        binding = titleText.bind(to: item.title.signal)
    }

    func prepareForReuse() { reuse.sendNext(()) }
}

extension LeakCorpus {
    static let recycledBindingScenarios: [(name: String, run: @Sendable () -> CorpusOutcome)] = [
        ("a recycled cell binding each item without ending the last binding", { feedCell(FeedCell.configure, staleAt: 19) }),
        ("a recycled cell binding each item until reuse", { feedCell(FeedCell.configureUntilReuse, staleAt: nil) }),
        ("a recycled cell disposing its last binding before binding again", { feedCell(FeedCell.configureReplacing, staleAt: nil) }),
    ]

    /// The table keeps the cell and the data source keeps the items while the scenario
    /// looks; ground truth is whether the first item, edited once the cell shows the last
    /// one, still writes into the cell.
    private static func feedCell(_ configure: (FeedCell) -> (FeedItem) -> Void, staleAt line: Int?) -> CorpusOutcome {
        let cell = FeedCell()
        let items = [FeedItem("first"), FeedItem("second"), FeedItem("third")]
        let trace = Tracer.record {
            for item in items {
                cell.prepareForReuse()
                configure(cell)(item)
            }
        }
        items[0].title.value = "edited"
        let staleWrote = cell.titleText.value == "edited"
        return CorpusOutcome(
            trace: trace, expected: line.map { [Expected(rule: .leakedSubscription, line: $0)] } ?? [],
            watched: Watched(survived: staleWrote, shouldSurvive: line != nil))
    }
}
