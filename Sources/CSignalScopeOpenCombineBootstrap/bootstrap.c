// Registers the OpenCombine adapter with the runtime when the program loads: a program that
// links SignalScopeOpenCombine has its publishers traced whenever something records, with no
// call of its own. Swift has no load-time initializers; the Swift side
// (signalscopeOpenCombineRegister) decides the rest. The reference is weak because a build
// without the OpenCombineAdapter trait compiles the Swift side to nothing, and the package
// manager passes traits to Swift targets only.
extern void signalscope_opencombine_register(void) __attribute__((weak));

__attribute__((constructor)) static void signalscope_opencombine_bootstrap(void) {
    if (signalscope_opencombine_register) signalscope_opencombine_register();
}

__thread __attribute__((tls_model("initial-exec"))) void *signalscope_opencombine_thread_slot;
