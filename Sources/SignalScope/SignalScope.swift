// `import SignalScope` is the one import an app needs: the runtime, the tracer, the
// analyzers and the renderers. Each
// concern lives in its own module; this one only gathers them.
@_exported import SignalScopeCore
@_exported import SignalScopeTracing
@_exported import SignalScopeAnalysis
@_exported import SignalScopeRendering
