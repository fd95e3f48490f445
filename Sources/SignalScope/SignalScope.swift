// `import SignalScope` is the one import an app needs: the runtime and the tracer. Each
// concern lives in its own module; this one only gathers them.
@_exported import SignalScopeCore
@_exported import SignalScopeTracing
