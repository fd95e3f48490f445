import OpenCombine
import SignalScopeTools

/// The timed part of a streaming workload on SignalScope: sends `0..<count`, completes, then
/// ends the subscriptions.
func stream(_ count: Int, into subject: SignalScope.Subject<Int>, thenDispose disposables: [Disposable]) {
    for value in 0..<count { subject.sendNext(value) }
    subject.sendCompleted()
    for disposable in disposables { disposable.dispose() }
}

/// The same on OpenCombine.
func stream(_ count: Int, into subject: PassthroughSubject<Int, Never>, thenCancel cancellables: [AnyCancellable]) {
    for value in 0..<count { subject.send(value) }
    subject.send(completion: .finished)
    for cancellable in cancellables { cancellable.cancel() }
}
