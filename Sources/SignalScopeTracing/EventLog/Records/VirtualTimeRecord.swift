/// `virtualTime` (kind 21): a `TestScheduler`'s virtual clock reads this, in nanoseconds
/// since `Date`'s reference date.
struct VirtualTimeRecord: EventRecord {
    static let kind: UInt8 = 21
    static let name = "virtualTime"

    var nanoseconds: Int64 = 0

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&nanoseconds, "nanoseconds")
    }

    func event(strings: LogStrings) -> TraceEvent? { .virtualTime(nanoseconds: nanoseconds) }
}
