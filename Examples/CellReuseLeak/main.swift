// A table cell subscribes to its button's taps every time it is configured. Cells are
// reused, so the old subscriptions pile up and every tap runs all of them. `--fixed` ends
// each subscription when the cell is prepared for reuse (takeUntil(rac_prepareForReuseSignal)).
import SignalScope

let fixed = CommandLine.arguments.contains("--fixed")

final class Button {
    let taps = Subject<Void>()
}

final class MessageCell {
    let likeButton = Button()
    let reused = Subject<Void>()
    var likedMessages: [String] = []

    func configure(message: String) {
        if fixed {
            likeButton.taps.takeUntil(reused).subscribeNext { [weak self] in self?.likedMessages.append(message) }
        } else {
            likeButton.taps.subscribeNext { [weak self] in self?.likedMessages.append(message) }  // planted: leaked-subscription
        }
    }

    func prepareForReuse() { reused.sendNext(()) }
}

/// The table keeps its cells for the whole run, as a table view does.
let table = [MessageCell()]

for message in ["hello", "are you there?", "see you"] {
    table[0].prepareForReuse()
    table[0].configure(message: message)
}
table[0].likeButton.taps.sendNext(())
print("one tap liked: \(table[0].likedMessages)")
