/// Text made safe for a GitHub Actions workflow command (`::error file=…,title=…::message`).
///
/// The runner reads a command per line, so a line break in a name or an error description
/// would start a command of its own (`::error::…`, `::add-mask::…`). Escaping works on
/// Unicode scalars: `"\r\n"` is one Swift `Character`, which a `Character`-wise replacement
/// of `"\r"` and `"\n"` misses.
package enum WorkflowCommandText {
    /// A command's message: `%`, CR and LF percent-encoded as the runner documents, other
    /// unsafe characters (``UnsafeScalars``) escaped visibly, since the log shows them.
    package static func message(_ text: String) -> String {
        UnsafeScalars.map(text) { scalar in
            switch scalar {
            case "%": "%25"
            case "\r": "%0D"
            case "\n": "%0A"
            default: nil
            }
        }
    }

    /// A command's property value (`file=`, `title=`), which also reserves `:` and `,`.
    package static func property(_ text: String) -> String {
        message(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
