import SignalScope
import SignalScopeTracing

/// Words a chain of heap references as the steps of a finding's path (each reference's
/// ``HeapRelation`` in the voice of the chain), the way a memory
/// graph debugger would, with signals understood: one line per object a user recognises
/// (their own objects, signals, subscriptions, disposables, commands), with what lies
/// between (a closure, a collection, a box, the runtime's own plumbing) folded into the
/// line that crosses it.
///
/// ```
/// SearchViewModel.query holds property (Search.swift:9)
/// property (Search.swift:9) keeps subscription #7 to property (Search.swift:9), made at Search.swift:19, in its subscriber list
/// subscription #7 keeps its next closure (Search.swift:19), which captures filter's predicate (Search.swift:19), which captures SearchViewModel
/// ```
struct PathDescription {
    let model: LeakModel
    /// Subscriptions already named in full: later lines call them by number.
    private var named: Set<SubscriptionID> = []
    /// The references blamed for the leak: a line crossing one is the suspect step, every
    /// other line of the chain an expected one.
    private let blamed: Set<TraceHeap.Reference>

    init(_ model: LeakModel, blamed: [TraceHeap.Reference] = []) {
        self.model = model
        self.blamed = Set(blamed)
    }

    /// The steps for `chain`, each with the references it crosses.
    mutating func lines(_ chain: [TraceHeap.Reference]) -> [FindingStep] {
        var lines: [FindingStep] = []
        var start = 0
        for (index, reference) in chain.enumerated() where model.isLandmark(reference.to) || index == chain.count - 1 {
            lines.append(line(Array(chain[start...index])))
            start = index + 1
        }
        return lines
    }

    /// From one landmark to the next.
    private mutating func line(_ steps: [TraceHeap.Reference]) -> FindingStep {
        var line = words(steps)
        if !blamed.isEmpty { line.mark = steps.contains(where: blamed.contains) ? .suspect : .expected }
        return line
    }

    private mutating func words(_ steps: [TraceHeap.Reference]) -> FindingStep {
        let holder = steps[0].from
        let target = steps[steps.count - 1].to
        let relations = steps.map { HeapRelation($0, in: model.trace) }
        let crossed = FindingStep(parts: [], crossings: zip(steps, relations).map { FindingStep.Crossing($0, relation: $1) })
        if case .node(let node)? = model.object(holder)?.role, case .subscription(let subscription)? = model.object(target)?.role,
            model.trace.subscriptions[subscription]?.node == node
        {
            return "\(label(holder)) keeps \(label(target)) in its subscriber list\(crossed)"
        }
        var words = [opening(holder, steps[0])]
        for (position, step) in steps.enumerated() {
            words.append(segment(
                step, relation: relations[position], isFirst: position == 0, next: position + 1 < steps.count ? steps[position + 1] : nil))
        }
        return words.filter { !$0.parts.isEmpty }.reduce(crossed) { line, words in line.parts.isEmpty ? line + words : line + " " + words }
    }

    /// The holder and its verb: `SearchViewModel.query holds`, `subscription #7 keeps`.
    private mutating func opening(_ holder: ObjectID, _ first: TraceHeap.Reference) -> FindingStep {
        if model.isUser(holder) {
            let name = FindingStep.name(model.objectLabel(holder), of: .object(holder))
            return first.kind == .storedProperty && !first.path.isEmpty ? "\(name).\(first.path) holds" : "\(name) holds"
        }
        return "\(label(holder)) keeps"
    }

    /// One reference, as the words that lead to its target.
    private mutating func segment(_ step: TraceHeap.Reference, relation: HeapRelation, isFirst: Bool, next: TraceHeap.Reference?) -> FindingStep {
        let target = targetWords(step.to, next: next)
        // A target with no words of its own (a wrapper the next step names) leaves the verb.
        func phrase(_ words: FindingStep) -> FindingStep { target.parts.isEmpty ? words : "\(words) \(target)" }
        switch relation {
        case .closure(let closure, let property):
            let name = HeapRelation.closureWords(closure, property: property, isFirst: isFirst)
            return model.isLandmark(step.to) ? "\(name), which captures \(target)" : "\(name),"
        case .source: return "\(target) as its source"
        case .property(let path) where target.parts.isEmpty && !path.isEmpty && model.object(step.to)?.category == .closureContext:
            // What a library's object keeps in a property and the path has no noun for (a
            // context or box, whose captures come next) is named by the property.
            return "\(isFirst ? "its" : "the") \(path),"
        case .property, .subscriberList: return target
        case .capture(_, let weak): return phrase(weak ? "which refers weakly to" : "which captures")
        case .element(let index): return phrase("whose element \(index) is")
        case .key: return phrase("whose keys include")
        case .value(let key): return phrase(key.map { "whose value for key \($0) is" } ?? "whose values include")
        case .boxedValue: return phrase("which holds")
        }
    }

    /// What a reference leads to: a landmark by name; a collection, a box or one of the
    /// runtime's objects as a noun; a closure's context as nothing (the closure names it).
    /// A runtime object that only wraps the landmark after it (a `MutableProperty` around its
    /// signal) is left out.
    private mutating func targetWords(_ id: ObjectID, next: TraceHeap.Reference?) -> FindingStep {
        if model.isLandmark(id) { return label(id) }
        guard let object = model.object(id) else { return "" }
        switch object.category {
        case .closureContext, .user: return ""
        case .runtime:
            if let next, next.kind == .storedProperty, next.closure == nil, model.isLandmark(next.to) { return "" }
            return "\(HeapNames.noun(of: object))"
        case .storage, .box, .library: return "\(HeapNames.noun(of: object))"
        }
    }

    /// A landmark's name, a subscription in full the first time the path names it.
    private mutating func label(_ id: ObjectID) -> FindingStep {
        let object = FindingStep.name(model.objectLabel(id), of: .object(id))
        guard let entity = model.object(id)?.role else { return object }
        switch entity {
        case .node(let node): return model.nodeLabel(node)
        case .subscription(let subscription):
            guard named.insert(subscription).inserted else { return .name(Trace.name(of: subscription), of: .subscription(subscription)) }
            return model.subscriptionLabel(subscription)
        case .disposable(let subscription):
            guard named.insert(subscription).inserted else { return .name(Trace.name(ofDisposableOf: subscription), of: .object(id)) }
            return "the disposable of \(model.subscriptionLabel(subscription))"
        case .command:
            let site: FindingStep = model.references(from: id).lazy.compactMap { $0.closure?.site }.first.map { " (\($0))" } ?? ""
            return "command\(site)"
        case .scheduledAction(let subscription):
            let of: FindingStep = subscription.map { " of \(FindingStep.name(Trace.name(of: $0), of: .subscription($0)))" } ?? ""
            return "a scheduled action\(of)"
        }
    }
}
