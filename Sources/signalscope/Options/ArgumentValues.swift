import ArgumentParser
import SignalScopeTools

// The options whose values are a fixed list parse as enums, so that `--help` and the
// completion scripts list the values and a wrong one is refused by name.

extension FailureThreshold: ExpressibleByArgument {}
extension ColorChoice: ExpressibleByArgument {}
extension GraphFormat: ExpressibleByArgument {}
extension LayoutEngine: ExpressibleByArgument {}
extension TimelineModel.Lanes: ExpressibleByArgument {}
