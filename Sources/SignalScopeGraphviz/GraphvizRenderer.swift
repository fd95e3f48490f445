import CGraphviz
import Foundation
@_spi(Locking) import SignalScope

/// The output formats Graphviz can produce, where the install has their renderer.
public enum GraphFormat: String, Sendable, CaseIterable {
    case svg, png, pdf, dot
}

/// The layout engines SignalScope offers: `dot` (layered, the default) and `sfdp` (force
/// directed, for large graphs).
public enum LayoutEngine: String, Sendable, CaseIterable {
    case dot, sfdp
}

/// Why Graphviz could not lay out or render a graph.
public enum RenderingError: Error, Equatable, CustomStringConvertible {
    /// Graphviz rejected the graph; `message` is what it said.
    case invalidGraph(message: String)
    /// The layout failed; `message` is what Graphviz said.
    case layoutFailed(engine: String, message: String)
    /// This Graphviz install has no renderer for the format.
    case formatUnavailable(String)

    public var description: String {
        switch self {
        case .invalidGraph(let message): "Graphviz rejected the graph: \(message)"
        case .layoutFailed(let engine, let message): "Graphviz layout with \(engine) failed: \(message)"
        case .formatUnavailable(let format):
            "this Graphviz install cannot render \(format) (install its plugins, e.g. libgvplugin-pango for pdf)"
        }
    }
}

/// Lays out and renders DOT with Graphviz's C library, in process.
///
/// Graphviz keeps global state and is not thread-safe, so every call goes through one
/// context owned by this type and one lock.
public enum GraphvizRenderer {
    private struct Context: @unchecked Sendable {  // only touched with the lock held
        let gvc: OpaquePointer?
    }

    private static let context = LockedValue(Context(gvc: gvContext()))
    /// What Graphviz reported through its error function during the current call.
    nonisolated(unsafe) private static var messages: [String] = []

    /// Renders `dot` to `format` with `engine`.
    public static func render(_ dot: String, format: GraphFormat, engine: LayoutEngine = .dot) throws(RenderingError) -> Data {
        if format == .dot { return Data(dot.utf8) }
        return try context.withLock { context throws(RenderingError) in
            messages = []
            _ = agseterrf { message in
                if let message { GraphvizRenderer.messages.append(String(cString: message)) }
                return 0
            }
            guard let graph = agmemread(dot) else {
                throw .invalidGraph(message: reported(or: "the DOT could not be parsed"))
            }
            defer { agclose(graph) }
            guard gvLayout(context.gvc, graph, engine.rawValue) == 0 else {
                throw .layoutFailed(engine: engine.rawValue, message: reported(or: "no layout was produced"))
            }
            defer { gvFreeLayout(context.gvc, graph) }
            var output: UnsafeMutablePointer<CChar>?
            var length: UInt32 = 0
            guard gvRenderData(context.gvc, graph, format.rawValue, &output, &length) == 0, let output else {
                throw .formatUnavailable(format.rawValue)
            }
            defer { gvFreeRenderData(output) }
            return Data(bytes: output, count: Int(length))
        }
    }

    private static func reported(or fallback: String) -> String {
        let text = messages.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? fallback : text
    }
}
