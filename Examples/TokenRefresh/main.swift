// An API call that fails once because the token expired: `catch` fetches a new token and
// then runs the original request again (`then`), so the caller sees one successful answer.
import SignalScope

struct TokenExpired: Error {}

final class APIClient {
    private(set) var token = "expired"
    private(set) var requests = 0

    func request(_ path: String) -> Signal<String> {
        Signal<String> { subscriber in
            self.requests += 1
            print("GET \(path) with token \(self.token)")
            if self.token == "expired" {
                subscriber.sendError(TokenExpired())
            } else {
                subscriber.sendNext("200 OK for \(path)")
                subscriber.sendCompleted()
            }
            return nil
        }
    }

    func refreshToken() -> Signal<String> {
        Signal<String> { subscriber in
            print("POST /token")
            self.token = "fresh"
            subscriber.sendNext(self.token)
            subscriber.sendCompleted()
            return nil
        }
    }

    /// The request, retried once with a fresh token when the token has expired.
    func authorized(_ path: String) -> Signal<String> {
        request(path).catch { error in
            guard error is TokenExpired else { return .error(error) }
            return self.refreshToken().then { self.request(path) }
        }
    }
}

let client = APIClient()
client.authorized("/inbox").subscribe(
    next: { print("answer: \($0)") },
    error: { print("failed: \($0)") },
    completed: { print("done after \(client.requests) requests") })
