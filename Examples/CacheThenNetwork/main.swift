// Loading an article: read the disk cache on a background queue; when the cache is missing
// or stale, fetch from the network and store the answer (doNext); deliver the result on the
// main queue, where the view is updated.
import Foundation
import SignalScope

struct CacheMiss: Error {}

/// The disk cache, touched only from the background queue.
final class ArticleCache: @unchecked Sendable {
    private var stored: [String: String] = [:]

    func read(_ id: String) -> Signal<String> {
        Signal<String> { subscriber in
            print("cache read \(id) on the main thread: \(Thread.isMainThread)")
            if let article = self.stored[id] {
                subscriber.sendNext(article)
                subscriber.sendCompleted()
            } else {
                subscriber.sendError(CacheMiss())
            }
            return nil
        }
    }

    func write(_ id: String, _ article: String) { stored[id] = article }
}

func fetch(_ id: String) -> Signal<String> {
    Signal<String> { subscriber in
        print("GET /articles/\(id)")
        subscriber.sendNext("Article \(id): signals all the way down")
        subscriber.sendCompleted()
        return nil
    }
}

let background = QueueScheduler(label: "cache")
let main = QueueScheduler(label: "main (stand-in)")
let cache = ArticleCache()

func load(_ id: String) -> Signal<String> {
    cache.read(id)
        .catch { _ in fetch(id).doNext { cache.write(id, $0) } }
        .subscribe(on: background)
        .deliver(on: main)
}

for attempt in ["first visit", "second visit"] {
    let done = DispatchSemaphore(value: 0)
    load("42").subscribe(
        next: { print("\(attempt): showing \"\($0)\"") },
        error: { print("\(attempt): failed with \($0)") },
        completed: { done.signal() })
    done.wait()
}

// An app's main queue keeps running; this program exits here. Let the stand-in main queue
// finish the delivery whose completion we waited for (it releases the subscription right
// after calling the handler), so the closing snapshot does not catch it half done.
let drained = DispatchSemaphore(value: 0)
_ = main.schedule { drained.signal() }
drained.wait()
