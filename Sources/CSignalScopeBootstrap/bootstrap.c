// Starts recording from the environment (SIGNALSCOPE_TRACE) when the program loads, so a
// program can be traced with no code change. Swift has no load-time initializers, so this
// one C constructor calls into SignalScopeTracing, which decides everything else.
extern void signalscope_bootstrap_from_environment(void);

// Defined only by programs that must never trace themselves (the signalscope tool, which
// links the library but runs inside traced commands and reads the very files
// SIGNALSCOPE_TRACE names). Weak, so every other program links without it.
extern const int signalscope_opt_out_of_environment_tracing __attribute__((weak));

__attribute__((constructor)) static void signalscope_bootstrap(void) {
    if (&signalscope_opt_out_of_environment_tracing != 0) return;
    signalscope_bootstrap_from_environment();
}
