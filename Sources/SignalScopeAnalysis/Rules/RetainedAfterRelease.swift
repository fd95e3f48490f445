import SignalScope
import SignalScopeTracing

/// An object the program said should be freed by a deadline (`Tracer.expectDeallocation`,
/// or a leak-check helper's `mustBeFreed`) was still alive then. The recording took a heap
/// snapshot at that moment (mid-run, or the closing one for a deadline at the end) and kept
/// the shortest chain of strong references that held it, from what held the chain (a
/// global, a subject, a live subscription, a running timer) down to the object: the path is
/// that chain, true of the heap when the snapshot was taken. An object freed later in the
/// run (retained, then released) is not reported. When an earlier rule explains what holds
/// the object at the end (a subscription it never ended, a cycle, a capture of itself), that
/// rule's finding, at the line where the fix goes, is the one kept: it starts with what the
/// program declared, and is an error.
struct RetainedAfterRelease: Analyzer {
    static let rule = RuleID.retainedAfterRelease
    static let severity = Severity.error
    static let summary = "An object the program said should be freed by a deadline was still alive then, held by the chain the path shows."

    func analyze(_ model: inout LeakModel) -> [Finding] {
        let payloads = model.trace.extendedEvents.compactMap { record -> (any TraceEventPayload)? in
            if case .extended(let event) = record.event { event.payload } else { nil }
        }
        let released = Set(payloads.compactMap { ($0 as? ReleasedObject)?.watch })
        let atEnd = Dictionary(model.heap.objects.values.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        return payloads.compactMap { $0 as? RetainedObject }.filter { !released.contains($0.watch) }.map { retained in
            var finding = finding(for: retained, in: model.trace)
            finding.contradictsDeclaration = true
            // Still alive at the end, the object is in the closing snapshot: a rule that
            // explains what holds it there made the finding to keep, and this one says what the
            // program declared, in it.
            if let object = retained.objects.first(where: { $0.id == retained.target }),
                let closing = atEnd[object.address], closing.typeName == object.typeName
            {
                finding.explained = [closing.id]
                finding.corroboration = Array(finding.steps.prefix(1))
            }
            return finding
        }
    }

    private func finding(for retained: RetainedObject, in trace: Trace) -> Finding {
        let name = Trace.shortTypeName(retained.typeName)
        let model = LeakModel(trace.replacingHeap(retained.heap))
        var description = PathDescription(model)
        // A snapshot taken well past the deadline (deadlines judged together, or paced) says so;
        // the closing one says when the recording ended, past which deadline.
        let (when, deadline) =
            retained.isMidRun ? RetainedObject.timing(within: retained.within, late: retained.late)
            : RetainedObject.closingTiming(within: retained.within, late: retained.late)
        var steps: [FindingStep] = ["\(name) was still alive \(when) \"\(retained.reason)\" (\(retained.site)\(deadline))"]
        // A walk that saw part of the heap says so wherever it speaks of what it did not reach.
        let partly = retained.sawPartOfTheHeap
            ? " (the walk did not see the whole heap: it stopped at its budget, could not read memory or could not be taken)" : ""
        if retained.wasNotReached {
            steps.append("the heap walk did not reach \(name)\(partly), so what holds it is not known")
        } else {
            // What holds the chain's first object (the object itself, when nothing in the
            // snapshot holds it): something outside what the walk reached (its retain count is
            // not the references found to it), or only words read conservatively.
            let first = retained.chain.first.map { model.label(model.traceEntity($0.from) ?? .object($0.from)) } ?? FindingStep(stringLiteral: name)
            if retained.isHeldFromOutside {
                steps.append(
                    partly.isEmpty
                        ? "\(first) is held from outside what the heap walk reached: by a global, a static, a thread's stack or an object made before recording started"
                        : "\(first) is held from outside what the heap walk reached\(partly)")
            } else if retained.onlyInexactHolders {
                steps.append("what holds \(first) could not be read exactly")
            }
            steps += description.lines(retained.chain)
            if retained.isCycle {
                steps.append("nothing outside holds them: they, and everything that holds them, are held only by one another")
            }
        }
        let entities = model.traceEntities(retained.chain.flatMap { [$0.from, $0.to] })
        return Finding(
            rule: Self.rule, severity: Self.severity,
            message: "\(name) was not freed after \"\(retained.reason)\"",
            subject: FindingSubject(kind: .objects, name: name, file: retained.site.file, function: retained.site.function),
            location: retained.site, steps: steps,
            hint: "cut the first strong reference on the path that should not outlive \"\(retained.reason)\": capture [weak self], end the subscription (takeUntil(lifetime.ended)) or send completed when it ends",
            entities: entities, evidence: [])
    }
}

extension RuleID {
    /// An object still alive after the deadline the program gave it.
    public static let retainedAfterRelease = RuleID("retained-after-release")
}
