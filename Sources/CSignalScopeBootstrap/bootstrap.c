// Starts recording from the environment (SIGNALSCOPE_TRACE) when the program loads, so a
// program can be traced with no code change. Swift has no load-time initializers, so this
// one C constructor calls into SignalScopeTracing, which decides everything else.
extern void signalscope_bootstrap_from_environment(void);

__attribute__((constructor)) static void signalscope_bootstrap(void) {
    signalscope_bootstrap_from_environment();
}
