// `import SignalScopeTools` gathers everything a tool built on SignalScope uses: the
// runtime, the tracer, the analyzers and the renderers, Graphviz included. Apps import
// `SignalScope` (the runtime) alone; see the products in Package.swift.
@_exported import SignalScope
@_exported import SignalScopeTracing
@_exported import SignalScopeAnalysis
@_exported import SignalScopeRendering
@_exported import SignalScopeGraphviz
