import Foundation
import SignalScope
import SignalScopeTracing

/// Exports a trace as JSON Lines: one object per record, in order, for `jq`, scripts and
/// log tools. Every object has `seq`, `ts` (monotonic nanoseconds), `thread` and `event`
/// (the kind, as ``TraceEvent/name`` gives it), then the fields of that kind.
public enum JSONLinesExporter {
    /// The JSON Lines text of `trace` (which must keep its records: read it with `.everything`).
    public static func jsonLines(_ trace: Trace) throws -> Data {
        var output = Data()
        for record in trace.records {
            var object: [String: Any] = [
                "seq": record.sequence, "ts": record.timestamp, "thread": record.thread, "event": record.event.name,
            ]
            object.merge(fields(of: record.event)) { _, new in new }
            output += try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            output.append(UInt8(ascii: "\n"))
        }
        return output
    }

    private static func fields(of event: TraceEvent) -> [String: Any] {
        func site(_ site: TraceSite) -> [String: Any] { ["file": site.file, "line": site.line, "function": site.function] }
        func entity(_ entity: TraceEntity) -> String {
            switch entity {
            case .node(let id): id.description
            case .subscription(let id): id.description
            case .object(let id): id.description
            }
        }
        switch event {
        case .node(let id, let kind, let name, let origin, let parents, let traits):
            return [
                "node": id.description, "kind": kind.rawValue, "name": name, "site": site(origin), "traits": traits.names,
                "parents": parents.map { ["node": $0.parent.description, "kind": $0.kind.rawValue] },
            ]
        case .nodeNamed(let id, let name): return ["node": id.description, "name": name]
        case .edge(let edge, let to):
            return ["from": edge.parent.description, "to": to.description, "kind": edge.kind.rawValue]
        case .subscribe(let id, let node, let parent, let origin):
            var fields: [String: Any] = ["subscription": id.description, "node": node.description, "site": site(origin)]
            if let parent { fields["parent"] = parent.description }
            return fields
        case .observerStored(let id, let handlers):
            return ["subscription": id.description, "handlers": handlers.rawValue]
        case .observerReleased(let id), .completed(let id): return ["subscription": id.description]
        case .next(let id, let value):
            var fields: [String: Any] = ["subscription": id.description]
            if let value { fields["value"] = value }
            return fields
        case .error(let id, let description): return ["subscription": id.description, "error": description]
        case .disposed(let id, let cause): return ["subscription": id.description, "cause": String(describing: cause)]
        case .violation(let node, let subscription, let kind, let sent, let stack):
            var fields: [String: Any] = ["node": node.description, "dropped": kind.rawValue, "stack": stack]
            if let subscription { fields["subscription"] = subscription.description }
            if let sent { fields["site"] = site(sent) }
            return fields
        case .end(let count): return ["records": count]
        case .object(let id, let address, let typeName):
            return ["object": id.description, "address": address, "type": typeName]
        case .capture(let id, let target, let references):
            return ["subscription": id.description, "target": entity(target), "references": references]
        case .snapshot(let limits, let objectLimitReached, let depthLimitReached, let memoryUnreadable):
            guard let limits else { return [:] }
            return [
                "objectLimit": limits.objects, "depthLimit": limits.depth, "objectLimitReached": objectLimitReached,
                "depthLimitReached": depthLimitReached, "memoryUnreadable": memoryUnreadable,
            ]
        case .alive(let target, let retainCount, let terminated):
            return ["entity": entity(target), "retainCount": retainCount, "terminated": terminated]
        case .holds(let object, let target): return ["object": object.description, "holds": entity(target)]
        case .heapObject(let object):
            var fields: [String: Any] = [
                "object": object.id.description, "address": object.address, "type": object.typeName,
                "category": String(describing: object.category), "retainCount": object.retainCount,
                "exploration": String(describing: object.exploration),
            ]
            if let entity = object.entity { fields["entity"] = String(describing: entity) }
            return fields
        case .reference(let reference):
            var fields: [String: Any] = [
                "from": reference.from.description, "to": reference.to.description,
                "kind": String(describing: reference.kind), "path": reference.path, "exact": reference.isExact,
                "weak": reference.isWeak,
            ]
            if let offset = reference.offset { fields["offset"] = offset }
            if let role = reference.closure?.role { fields["closure"] = role }
            if let site = reference.closure?.site { fields["closureSite"] = site.description }
            if let name = reference.closure?.name { fields["closureName"] = name }
            return fields
        }
    }
}
