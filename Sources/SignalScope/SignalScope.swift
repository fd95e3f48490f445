// `import SignalScope` is the one import an app needs: it brings in the runtime (and, as
// they land, tracing). Each concern lives in its own module; this one only gathers them.
@_exported import SignalScopeCore
