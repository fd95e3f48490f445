/// One row of the results: a scenario run one way, with the median of its repetitions.
struct Measurement: Codable, Sendable {
    let scenario: String
    let variant: String
    /// The median time per operation, in nanoseconds.
    let nsPerOp: Double
    /// What one operation is.
    let unit: String
    /// How many timed repetitions the median is taken over.
    let repetitions: Int
    /// Traced variants: how many events each operation recorded.
    var eventsPerOp: Double?
    /// Traced variants: what recording costs per event, (traced − untraced) / events per op.
    var nsPerEvent: Double?
    /// Analysis: events read and analysed per second.
    var eventsPerSecond: Double?
    /// Analysis: the events in the trace analysed.
    var events: Int?
    /// Analysis: the peak of the analysing process's anonymous (heap) memory, in MiB;
    /// snapshot: how far the peak resident memory rose while stopping the recording.
    var peakHeapMebibytes: Double?
    /// Rendering: the median time of one render; snapshot: of stopping the recording; in seconds.
    var seconds: Double?
    /// Rendering: the nodes the graph drew.
    var nodes: Int?
    /// Analysis of leaked subscriptions: how many the trace holds.
    var subscriptions: Int?
    /// Snapshot: the objects the heap walk recorded.
    var objects: Int?
    /// Snapshot: the longest a thread of the program went without running meanwhile.
    var pauseMilliseconds: Double?
}
