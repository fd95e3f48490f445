#if OpenCombineAdapter
import SignalScope
import Synchronization

/// What the adapter reported of a subscription: the hooks it reports to, for its whole life
/// (rule I10), its ids, and for a direct subscriber of a subject, that subject.
///
/// An object rather than a value: every value OpenCombine delivers looks one up by its
/// subscriber and keeps it on the thread until the delivery ends, and a reference is one
/// retain where a copy of the value's fields (an existential and an array among them) went
/// through its value witnesses.
final class ReportedSubscription: Sendable {
    let hook: any SignalInstrumentation
    let subscription: SubscriptionID
    let node: NodeID
    let subject: ObjectIdentifier?
    /// Whether what it receives is its publisher's own work (``PublisherRoles/Role/sendsItsOwnWork``).
    let receivesWork: Bool
    /// For the subscriber of an operator that delivers on a scheduler: the downstream
    /// subscription whose ``SchedulerHop`` what it receives goes into.
    let feedsHop: SubscriptionID?
    /// Whether what it receives comes out of a ``SchedulerHop`` (its publisher delivers on a scheduler).
    let leavesHop: Bool
    /// The subscriptions of the same subscriber that handed it on, outermost first: a
    /// `Deferred` subscribes its subscriber to the publisher it makes, inside its own
    /// subscribe, and then hears nothing more of it; they end when this one does.
    let handedOnBy: [SubscriptionID]
    /// Set when the adapter forgets it (cancelled, or completed): a delivery to it still in
    /// progress then asks for no more on its behalf.
    let isForgotten = Atomic<Bool>(false)

    init(
        hook: any SignalInstrumentation, subscription: SubscriptionID, node: NodeID, subject: ObjectIdentifier?, receivesWork: Bool,
        feedsHop: SubscriptionID?, leavesHop: Bool, handedOnBy: [SubscriptionID]
    ) {
        self.hook = hook
        self.subscription = subscription
        self.node = node
        self.subject = subject
        self.receivesWork = receivesWork
        self.feedsHop = feedsHop
        self.leavesHop = leavesHop
        self.handedOnBy = handedOnBy
    }

    /// This subscription and those that handed it on, outermost first.
    var chain: [SubscriptionID] { handedOnBy + [subscription] }
}
#endif
