#if OpenCombineAdapter
#if canImport(Glibc)
import Glibc
#endif
import CSignalScopeOpenCombineBootstrap
import SignalScope

/// What the adapter follows on one thread: OpenCombine reports a subscribe, a delivery and a
/// cancellation as a call before it and a call after it, on the thread that runs it, and they
/// nest (an operator subscribes its upstream inside its own subscribe; a subscriber sends
/// values on inside its delivery).
final class ThreadState {
    // Only the owning thread touches its state (it is reached through a thread-local word),
    // so no two accesses can overlap: the dynamic exclusivity checks Swift would make
    // on each of OpenCombine's calls are left out.

    /// The subscribes in progress, innermost last; `nil` for one nothing records.
    @exclusivity(unchecked) var subscribes: [SubscribeFrame?] = []
    /// The deliveries in progress, innermost last; `nil` for one nothing records.
    @exclusivity(unchecked) var deliveries: [Delivery?] = []
    /// How many cancellations are in progress.
    @exclusivity(unchecked) var cancellations = 0
    /// The adapter's start this state belongs to.
    @exclusivity(unchecked) private var epoch: UInt64 = 0

    /// This thread's, made on its first use, and emptied when `epoch`, the adapter's start, is
    /// not the one it was last used in. Reached through a thread-local word rather than a
    /// thread dictionary or `pthread_getspecific`: it is read twice for every value
    /// OpenCombine delivers while recording.
    static func current(epoch: UInt64) -> ThreadState {
        let state: ThreadState
        if let stored = signalscope_opencombine_thread() {
            state = Unmanaged<ThreadState>.fromOpaque(stored).takeUnretainedValue()
        } else {
            state = ThreadState()
            let retained = Unmanaged.passRetained(state).toOpaque()
            signalscope_set_opencombine_thread(retained)
            // The key only releases the state when the thread exits: a thread-local word has
            // no destructor.
            pthread_setspecific(exitKey, retained)
        }
        if state.epoch != epoch {
            (state.subscribes, state.deliveries, state.cancellations, state.epoch) = ([], [], 0, epoch)
        }
        return state
    }

    private static let exitKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { stored in
            guard let stored else { return }
            // Runs on the exiting thread: what OpenCombine reports on it later (another key's
            // destructor cancelling a subscription) makes a new state rather than reaching this one.
            signalscope_set_opencombine_thread(nil)
            Unmanaged<ThreadState>.fromOpaque(stored).release()
        }
        return key
    }()
}

/// A subscribe in progress: what the subscribes nested in it belong to.
struct SubscribeFrame {
    let hook: any SignalInstrumentation
    let node: NodeID
    let subscription: SubscriptionID
    let site: SourceLocation
    /// The run of the publisher's work this subscribe began, if it is cold.
    let run: DeliveryToken?
    /// For an operator that delivers on a scheduler, how (``SchedulerHop``).
    let hop: SchedulerHop.Order?
}

/// A delivery in progress, the token that ends it, the run of work around it, if the value
/// is its publisher's own work, and the scheduled action around both, if it crossed a hop.
struct Delivery {
    /// The subscription delivered to.
    let reported: ReportedSubscription
    let token: DeliveryToken
    let run: DeliveryToken?
    /// The scheduled action around the delivery, for one an operator makes on a scheduler.
    var action: DeliveryToken? = nil
}
#endif
