import SignalScope
import SignalScopeTracing

/// Exports a trace as JSON Lines, record by record (``TraceExporter``): one object per
/// record, in order, for `jq`, scripts and log tools. Every object starts with `seq`, `ts`
/// (monotonic nanoseconds), `thread` and `event` (the kind, as ``TraceEvent/name`` gives
/// it), then the fields of that kind, then `cause` and `causeKind` when the record names
/// what caused it, and `"creationBlock":true` when a cold signal's creation block wrote it.
public struct JSONLinesExporter: TraceExporter {
    /// An exporter ready for the first record.
    public init() {}

    public mutating func begin(into output: inout JSONBuffer) {}
    public mutating func finish(into output: inout JSONBuffer) {}

    public mutating func add(_ record: TraceRecord, into output: inout JSONBuffer) {
        var line = Line(output: output)
        output = JSONBuffer()
        line.output.raw("{")
        line.number("seq", record.sequence)
        line.number("ts", record.timestamp)
        line.number("thread", record.thread)
        line.string("event", record.event.name)
        line.fields(of: record.event)
        if let cause = record.cause {
            line.number("cause", cause.sequence)
            line.string("causeKind", cause.kind == .during ? "during" : "scheduled")
        }
        if record.inCreationBlock { line.bool("creationBlock", true) }
        line.output.raw("}\n")
        output = line.output
    }

    /// One object's members, comma-separated.
    private struct Line {
        var output: JSONBuffer
        private var isFirst = true

        init(output: JSONBuffer) { self.output = output }

        mutating func member(_ key: String) {
            if !isFirst { output.raw(",") }
            isFirst = false
            output.key(key)
        }
        mutating func string(_ key: String, _ value: String) {
            member(key)
            output.string(value)
        }
        mutating func number(_ key: String, _ value: some BinaryInteger) {
            member(key)
            output.number(value)
        }
        mutating func bool(_ key: String, _ value: Bool) {
            member(key)
            output.raw(value ? "true" : "false")
        }
        mutating func site(_ key: String, _ site: TraceSite) {
            member(key)
            output.raw("{")
            output.key("file")
            output.string(site.file)
            output.raw(",")
            output.key("line")
            output.number(site.line)
            output.raw(",")
            output.key("function")
            output.string(site.function)
            output.raw("}")
        }
        mutating func strings(_ key: String, _ values: [String]) {
            member(key)
            output.raw("[")
            for (index, value) in values.enumerated() {
                if index > 0 { output.raw(",") }
                output.string(value)
            }
            output.raw("]")
        }

        mutating func fields(of event: TraceEvent) {
            switch event {
            case .node(let id, let kind, let name, let origin, let parents, let traits):
                string("node", id.description)
                string("kind", kind.rawValue)
                string("name", name)
                site("site", origin)
                strings("traits", traits.names)
                member("parents")
                output.raw("[")
                for (index, parent) in parents.enumerated() {
                    if index > 0 { output.raw(",") }
                    output.raw("{")
                    output.key("node")
                    output.string(parent.parent.description)
                    output.raw(",")
                    output.key("kind")
                    output.string(parent.kind.rawValue)
                    output.raw("}")
                }
                output.raw("]")
            case .nodeNamed(let id, let name):
                string("node", id.description)
                string("name", name)
            case .edge(let edge, let to):
                string("from", edge.parent.description)
                string("to", to.description)
                string("kind", edge.kind.rawValue)
            case .subscribe(let id, let node, let parent, let origin, let bindingTarget):
                string("subscription", id.description)
                string("node", node.description)
                site("site", origin)
                if let parent { string("parent", parent.description) }
                if let bindingTarget { string("bindingTarget", bindingTarget.description) }
            case .observerStored(let id, let handlers):
                string("subscription", id.description)
                number("handlers", handlers.rawValue)
            case .observerReleased(let id), .completed(let id):
                string("subscription", id.description)
            case .next(let id, let value):
                string("subscription", id.description)
                if let value { string("value", value) }
            case .error(let id, let description):
                string("subscription", id.description)
                string("error", description)
            case .disposed(let id, let cause):
                string("subscription", id.description)
                // Not `cause`: that member is the record's cause, which a disposal may have too.
                string("ended", String(describing: cause))
            case .violation(let node, let subscription, let kind, let sent, let stack):
                string("node", node.description)
                string("dropped", kind.rawValue)
                string("stack", stack)
                if let subscription { string("subscription", subscription.description) }
                if let sent { site("site", sent) }
            case .end(let count):
                number("records", count)
            case .extended(let event):
                for (key, value) in event.payload.exportedFields { string(key, value) }
            case .snapshot(let limits, let objectLimitReached, let depthLimitReached, let memoryUnreadable, let coversAllocations, let unwalkedReason):
                guard let limits else { return }
                number("objectLimit", limits.objects)
                number("depthLimit", limits.depth)
                bool("objectLimitReached", objectLimitReached)
                bool("depthLimitReached", depthLimitReached)
                bool("memoryUnreadable", memoryUnreadable)
                bool("coversAllocations", coversAllocations)
                if let unwalkedReason { string("unwalkedReason", unwalkedReason) }
            case .nodeAlive(let id, let retainCount, let terminated):
                string("entity", id.description)
                number("retainCount", retainCount)
                bool("terminated", terminated)
            case .subscriptionAlive(let id, let retainCount):
                string("entity", id.description)
                number("retainCount", retainCount)
                bool("terminated", false)
            case .heapObject(let object):
                string("object", object.id.description)
                number("address", object.address)
                string("type", object.typeName)
                string("category", String(describing: object.category))
                number("retainCount", object.retainCount)
                string("exploration", String(describing: object.exploration))
                if let entity = object.role { string("entity", String(describing: entity)) }
                string("allocation", String(describing: object.allocation))
                if let order = object.allocationOrder { number("allocationOrder", order) }
            case .reference(let reference):
                string("from", reference.from.description)
                string("to", reference.to.description)
                string("kind", reference.kind.description)
                string("path", reference.path)
                bool("exact", reference.isExact)
                bool("weak", reference.isWeak)
                if let offset = reference.offset { number("offset", offset) }
                if let role = reference.closure?.role { string("closure", role) }
                if let site = reference.closure?.site { string("closureSite", site.description) }
                if let name = reference.closure?.name { string("closureName", name) }
            case .virtualTime(let nanoseconds):
                number("virtualNanoseconds", nanoseconds)
            case .typeSite(let typeName, let origin):
                string("type", typeName)
                site("site", origin)
            }
        }
    }
}
