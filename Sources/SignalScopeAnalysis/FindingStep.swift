import SignalScope
import SignalScopeTracing

/// One step of a finding's proof, as data: its words, with the source sites and the things
/// it names kept apart from the text, and the heap references it crosses. Each output
/// phrases it its own way (`check` resolves each site to a path in the project, the report
/// to a link), so that none of them parses another's text.
///
/// Analyzers write steps as strings: interpolating a ``TraceSite`` keeps it a site,
/// interpolating another step keeps its parts and references.
public struct FindingStep: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// A run of the step's words.
    public enum Part: Sendable, Hashable {
        /// Plain words.
        case text(String)
        /// A place in the source, as the trace stores it (`Module/File.swift`, a line).
        case site(TraceSite)
        /// The name of a node, a subscription or an object of the trace.
        case name(String, of: TraceEntity)
    }

    /// The step's words, in order.
    public private(set) var parts: [Part]
    /// The strong references this step crosses, in order, each true of the heap at the
    /// snapshot and told with what it is to its holder (empty for a step about events, not
    /// references).
    public private(set) var crossings: [Crossing]
    /// The references of ``crossings``.
    public var references: [TraceHeap.Reference] { crossings.map(\.reference) }

    /// A strong reference a step crosses, and what it is to the object that holds it.
    public struct Crossing: Sendable, Hashable {
        public let reference: TraceHeap.Reference
        public let relation: HeapRelation

        public init(_ reference: TraceHeap.Reference, relation: HeapRelation) {
            self.reference = reference
            self.relation = relation
        }
    }
    /// For a step of a leak's chain of references: whether it is the reference to cut or one
    /// meant to hold while its holder lives (`nil` for a step that is not such a link).
    public internal(set) var mark: Mark?

    /// What a link of a leak's chain is, as LeakCanary labels its leak traces.
    public enum Mark: String, Sendable, Hashable {
        /// A reference meant to hold while its holder is live: a subject's subscriber list,
        /// an observation token's block, a container's elements, an owner's property.
        case expected
        /// The reference that closes the loop, blamed for the leak: the one to cut.
        case suspect
    }

    /// A step of `parts` crossing `crossings`.
    public init(parts: [Part], crossings: [Crossing] = []) {
        self.parts = []
        self.crossings = crossings
        for part in parts { append(part) }
    }

    public init(stringLiteral value: String) {
        self.init(parts: [.text(value)])
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(parts: stringInterpolation.parts, crossings: stringInterpolation.crossings)
    }

    /// A step that names `entity` as `name`.
    public static func name(_ name: String, of entity: TraceEntity) -> FindingStep {
        FindingStep(parts: [.name(name, of: entity)])
    }

    /// The step in words, each site written by `site`.
    public func phrased(site: (TraceSite) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text), .name(let text, _): text
            case .site(let place): site(place)
            }
        }.joined()
    }

    /// The nodes, subscriptions and objects the step names, in order.
    public var entities: [TraceEntity] {
        parts.compactMap { if case .name(_, let entity) = $0 { entity } else { nil } }
    }

    /// The source sites the step names, in order.
    public var sites: [TraceSite] {
        parts.compactMap { if case .site(let site) = $0 { site } else { nil } }
    }

    /// The step in words, sites as the trace stores them (`Module/File.swift:12`).
    public var description: String { phrased(site: \.description) }

    /// This step followed by `other`'s words and references.
    public static func + (step: FindingStep, other: FindingStep) -> FindingStep {
        var joined = step
        for part in other.parts { joined.append(part) }
        joined.crossings += other.crossings
        return joined
    }

    private mutating func append(_ part: Part) {
        if case .text(let text) = part {
            if text.isEmpty { return }
            if case .text(let previous)? = parts.last {
                parts[parts.count - 1] = .text(previous + text)
                return
            }
        }
        parts.append(part)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []
        fileprivate var crossings: [Crossing] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }
        public mutating func appendInterpolation(_ site: TraceSite) { parts.append(.site(site)) }
        public mutating func appendInterpolation(_ step: FindingStep) {
            parts += step.parts
            crossings += step.crossings
        }
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { parts.append(.text(value.description)) }
    }
}
