import SignalScope
import SignalScopeAnalysis
import SignalScopeTracing

/// Exports a trace in Perfetto's own format (protobuf `TracePacket`s carrying `TrackEvent`s),
/// which ui.perfetto.dev opens at tens of millions of events and `trace_processor` queries in
/// SQL, record by record (``TraceExporter``).
///
/// The same slices and arrows as ``ChromeTraceExporter``'s: one track per thread of the
/// traced program, where each `next`, `error` and `completed` is an instant slice named by
/// its subscription (`next · map #3`), with the value (when recorded), the error and the
/// subscription as debug annotations; one track per subscription (its lane), a slice from
/// subscribe to disposal carrying its site and, when the analysis found one about it or its
/// signal, the finding; a record a delivery caused that is not a delivery (a subscription, a
/// disposal, a signal made in a closure) as an instant slice where it happened; and every
/// recorded cause as a flow from the causing slice to the caused one, so the UI draws the
/// arrows and `trace_processor`'s flow tables (`DIRECTLY_CONNECTED_FLOW`, `PRECEDING_FLOW`)
/// walk them. Slice names, argument names, sites and reasons are interned once per sequence. A track named `findings` holds
/// each finding of the analysis, with its location, path and fix, at the end.
public struct PerfettoExporter: TraceExporter {
    public typealias Output = ProtobufBuffer

    private var names = ExportNames()
    private var threads: Set<UInt32> = []
    private var origin: UInt64?
    private var last: UInt64 = 0
    private var flows = CauseFlows()
    /// Interned slice and annotation names: cleared (with the sequence's incremental state) when it
    /// grows past ``internedLimit``, so that memory stays flat however many subscriptions
    /// the trace made.
    private var interned: [InternedKey: UInt64] = [:]
    private var clearsState = true
    private static let internedLimit = 65_536
    private let findings: [Finding]
    private var findingsAbout: [TraceEntity: [String]] = [:]

    /// An exporter ready for the first record; `findings` (the analysis of the same trace)
    /// are written on the tracks of the subscriptions and signals they name, and on a track
    /// of their own.
    public init(findings: [Finding] = []) {
        self.findings = findings
        for finding in findings {
            let line = "[\(finding.rule)] \(finding.message) (\(finding.location))"
            for entity in Set(finding.entities) { findingsAbout[entity, default: []].append(line) }
        }
    }

    public var readsTwice: Bool { true }

    public mutating func prepare(_ record: TraceRecord) { flows.count(record) }

    public mutating func begin(into output: inout ProtobufBuffer) {
        packet(&output, time: nil) { packet in
            packet.message(Packet.trackDescriptor) { track in
                track.varint(Track.uuid, Self.processTrack)
                track.message(Track.process) { process in
                    process.varint(Process.pid, 1)
                    process.string(Process.name, "signals")
                }
            }
        }
    }

    public mutating func add(_ record: TraceRecord, into output: inout ProtobufBuffer) {
        let origin = self.origin ?? record.timestamp
        self.origin = origin
        let time = record.timestamp > origin ? record.timestamp - origin : 0
        last = max(last, time)
        if threads.insert(record.thread).inserted { describeThread(record.thread, into: &output) }
        let wasLive = record.event.subscription.map { names.live[$0] != nil } ?? false
        let label = names.note(record.event)
        switch record.event {
        case .subscribe(let id, let node, _, let site, _):
            let track = Self.subscriptionTrack(id)
            packet(&output, time: nil) { packet in
                packet.message(Packet.trackDescriptor) { descriptor in
                    descriptor.varint(Track.uuid, track)
                    descriptor.varint(Track.parentUUID, Self.processTrack)
                    descriptor.string(Track.name, label)
                }
            }
            let found = (findingsAbout[.subscription(id)] ?? []) + (findingsAbout[.node(node)] ?? [])
            slice(&output, .sliceBegin, label, track: track, time: time,
                  annotations: [("site", .repeated(site.description))] + found.map { ("finding", .string($0)) })
        case .next(let id, let value):
            delivered(&output, id, record, label, time: time, annotations: value.map { [("value", .string($0))] } ?? [])
            return
        case .error(let id, let description):
            delivered(&output, id, record, label, time: time, annotations: [("error", .string(description))])
            return
        case .completed(let id):
            delivered(&output, id, record, label, time: time)
            return
        case .disposed(let id, let cause):
            if wasLive {
                slice(&output, .sliceEnd, nil, track: Self.subscriptionTrack(id), time: time, annotations: [("ended", .repeated("\(cause)"))])
            }
        default:
            break
        }
        if record.cause != nil {
            slice(&output, .instant, ExportNames.slice(record.event, about: label),
                  track: Self.threadTrack(record.thread), time: time, arrowsOf: record)
        }
    }

    public mutating func finish(into output: inout ProtobufBuffer) {
        for id in names.live.keys.sorted() {
            slice(&output, .sliceEnd, nil, track: Self.subscriptionTrack(id), time: last, annotations: [("ended", .repeated("still live"))])
        }
        names.endAll()
        guard !findings.isEmpty else { return }
        packet(&output, time: nil) { packet in
            packet.message(Packet.trackDescriptor) { track in
                track.varint(Track.uuid, Self.findingsTrack)
                track.varint(Track.parentUUID, Self.processTrack)
                track.string(Track.name, "findings")
            }
        }
        for finding in findings {
            let annotations: [(String, AnnotationValue)] =
                [("severity", .string(finding.severity.rawValue)), ("location", .string(finding.location.description))]
                + finding.path.enumerated().map { ("path \($0.offset + 1)", .string($0.element)) }
                + [("fix", .string(finding.hint)), ("count", .uint(UInt64(finding.count)))]
            slice(&output, .instant, "[\(finding.rule)] \(finding.message)", track: Self.findingsTrack, time: last, annotations: annotations)
        }
    }

    /// An event delivered to a subscription: an instant slice on its thread's track, with the
    /// arrow from its cause and those to what it caused.
    private mutating func delivered(
        _ output: inout ProtobufBuffer, _ id: SubscriptionID, _ record: TraceRecord, _ label: String, time: UInt64,
        annotations: [(String, AnnotationValue)] = []
    ) {
        slice(&output, .instant, ExportNames.slice(record.event, about: label), track: Self.threadTrack(record.thread), time: time, arrowsOf: record,
              annotations: [("subscription", .uint(id.rawValue))] + annotations)
    }

    private mutating func describeThread(_ thread: UInt32, into output: inout ProtobufBuffer) {
        packet(&output, time: nil) { packet in
            packet.message(Packet.trackDescriptor) { track in
                track.varint(Track.uuid, Self.threadTrack(thread))
                track.message(Track.thread) { descriptor in
                    descriptor.varint(ThreadField.pid, 1)
                    descriptor.varint(ThreadField.tid, UInt64(thread))
                    descriptor.string(ThreadField.name, "thread \(thread)")
                }
            }
        }
    }

    /// One `TrackEvent` packet: a slice's begin or end, or an instant; with `arrowsOf`, the
    /// arrow from that record's cause ends here and the arrows to its effects leave from here.
    private mutating func slice(
        _ output: inout ProtobufBuffer, _ type: EventType, _ name: String?, track: UInt64, time: UInt64,
        arrowsOf record: TraceRecord? = nil, annotations: [(String, AnnotationValue)] = []
    ) {
        if interned.count >= Self.internedLimit {
            interned.removeAll()
            clearsState = true
        }
        var new = InternedData()
        let nameID = name.map { intern($0, as: .eventName, into: &new) }
        let annotationIDs = annotations.map { intern($0.0, as: .annotationName, into: &new) }
        let valueIDs = annotations.map { annotation -> UInt64? in
            if case .repeated(let text) = annotation.1 { intern(text, as: .annotationValue, into: &new) } else { nil }
        }
        var arriving: UInt64?
        var leaving: [UInt64] = []
        if let record {
            arriving = flows.arriving(at: record)?.id
            leaving = flows.leaving(record.sequence, at: CauseFlows.Origin(thread: record.thread, time: time))
        }
        packet(&output, time: time) { packet in
            packet.message(Packet.trackEvent) { event in
                event.varint(Event.type, type.rawValue)
                event.varint(Event.trackUUID, track)
                if let nameID { event.varint(Event.nameIID, nameID) }
                for (index, (_, value)) in annotations.enumerated() {
                    event.message(Event.debugAnnotations) { annotation in
                        annotation.varint(Annotation.nameIID, annotationIDs[index])
                        switch value {
                        case .string(let text): annotation.string(Annotation.stringValue, text)
                        case .repeated: annotation.varint(Annotation.stringValueIID, valueIDs[index] ?? 0)
                        case .uint(let number): annotation.varint(Annotation.uintValue, number)
                        }
                    }
                }
                for id in leaving { event.fixed64(Event.flowIDs, id) }
                if let arriving { event.fixed64(Event.terminatingFlowIDs, arriving) }
            }
            if !new.isEmpty {
                packet.message(Packet.internedData) { data in
                    for (field, entries) in [
                        (Interned.eventNames, new.eventNames), (Interned.annotationNames, new.annotationNames),
                        (Interned.annotationValues, new.annotationValues),
                    ] {
                        // Each is an id and its text, as field 1 and field 2 (`EventName`,
                        // `DebugAnnotationName`, `InternedString`, whose text is bytes: UTF-8).
                        for (id, text) in entries {
                            data.message(field) { entry in
                                entry.varint(InternedName.iid, id)
                                entry.string(InternedName.name, text)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The interned id of `text` as a name of `kind`, interning it (into `new`, which the
    /// packet that first uses it carries) the first time since the state was cleared.
    private mutating func intern(_ text: String, as kind: InternedKind, into new: inout InternedData) -> UInt64 {
        if let id = interned[InternedKey(kind: kind, text: text)] { return id }
        // Ids count from 1 (0 is "not set" to Perfetto), one count for the three tables:
        // each id is unique in its own table, with gaps.
        let id = UInt64(interned.count + 1)
        interned[InternedKey(kind: kind, text: text)] = id
        switch kind {
        case .eventName: new.eventNames.append((id, text))
        case .annotationName: new.annotationNames.append((id, text))
        case .annotationValue: new.annotationValues.append((id, text))
        }
        return id
    }

    private enum InternedKind { case eventName, annotationName, annotationValue }
    private struct InternedKey: Hashable {
        let kind: InternedKind
        let text: String
    }
    private struct InternedData {
        var eventNames: [(UInt64, String)] = []
        var annotationNames: [(UInt64, String)] = []
        var annotationValues: [(UInt64, String)] = []
        var isEmpty: Bool { eventNames.isEmpty && annotationNames.isEmpty && annotationValues.isEmpty }
    }

    /// A debug annotation's value: a text that is written with it, a text that repeats
    /// (a site, why a subscription ended) interned once, or a number.
    private enum AnnotationValue {
        case string(String)
        case repeated(String)
        case uint(UInt64)
    }

    /// One `TracePacket` on the export's one sequence; the first after the interned names
    /// were cleared says so, and every packet says it may use them.
    private mutating func packet(_ output: inout ProtobufBuffer, time: UInt64?, _ body: (inout ProtobufBuffer) -> Void) {
        let flags = clearsState ? SequenceFlags.incrementalStateCleared | SequenceFlags.needsIncrementalState : SequenceFlags.needsIncrementalState
        clearsState = false
        output.message(TraceField.packet) { packet in
            if let time { packet.varint(Packet.timestamp, time) }
            packet.varint(Packet.trustedPacketSequenceID, Self.sequenceID)
            packet.varint(Packet.sequenceFlags, flags)
            body(&packet)
        }
    }

    // Track uuids: the process's, the findings', one per thread, one per subscription.
    private static let sequenceID: UInt64 = 1
    private static let processTrack: UInt64 = 1
    private static let findingsTrack: UInt64 = 2
    private static func threadTrack(_ thread: UInt32) -> UInt64 { 1 << 32 | UInt64(thread) }
    private static func subscriptionTrack(_ id: SubscriptionID) -> UInt64 { 1 << 40 | id.rawValue }

    // Field numbers of Perfetto's protos (protos/perfetto/trace/), the ones this export writes.
    private enum TraceField { static let packet = 1 }
    private enum Packet {
        static let timestamp = 8, trustedPacketSequenceID = 10, trackEvent = 11, internedData = 12, sequenceFlags = 13
        static let trackDescriptor = 60
    }
    private enum SequenceFlags { static let incrementalStateCleared: UInt64 = 1, needsIncrementalState: UInt64 = 2 }
    private enum Track { static let uuid = 1, name = 2, process = 3, thread = 4, parentUUID = 5 }
    private enum Process { static let pid = 1, name = 6 }
    private enum ThreadField { static let pid = 1, tid = 2, name = 5 }
    private enum Event {
        static let debugAnnotations = 4, type = 9, nameIID = 10, trackUUID = 11, flowIDs = 47, terminatingFlowIDs = 48
    }
    private enum EventType: UInt64 { case sliceBegin = 1, sliceEnd = 2, instant = 3 }
    private enum Annotation { static let nameIID = 1, uintValue = 3, stringValue = 6, stringValueIID = 17 }
    private enum Interned { static let eventNames = 2, annotationNames = 3, annotationValues = 29 }
    private enum InternedName { static let iid = 1, name = 2 }
}
