/// The growing trace: records added as a program still writes them (`signalscope live`),
/// and at any moment a view of them finished as a read log is.
extension Trace {
    /// An empty trace that ``add(_:)`` grows record by record, for a view of a program that
    /// still runs (`signalscope live`); ``soFar`` is what it knows at any moment.
    package init(growing detail: Detail) {
        self.init(detail: detail)
    }

    /// The trace of the records added so far, finished as a read log is: its facts
    /// concluded, its heap indexed. The growing trace keeps what finishing drops (the parents
    /// it has seen, what its facts still follow), so it can take more records afterwards.
    package var soFar: Trace {
        var trace = self
        trace.finish()
        return trace
    }
}
