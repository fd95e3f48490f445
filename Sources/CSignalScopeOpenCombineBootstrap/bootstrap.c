// Registers the OpenCombine adapter with the runtime when the program loads: a program that
// links SignalScopeOpenCombine has its publishers traced whenever something records, with no
// call of its own. Swift has no load-time initializers; the Swift side
// (signalscopeOpenCombineRegister) decides the rest.
extern void signalscope_opencombine_register(void);

__attribute__((constructor)) static void signalscope_opencombine_bootstrap(void) {
    signalscope_opencombine_register();
}
