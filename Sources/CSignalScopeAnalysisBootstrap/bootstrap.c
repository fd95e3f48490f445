// Registers the analysis module's trace facts with the tracer when the program loads: every
// program that links SignalScopeAnalysis carries this constructor, so that any trace it reads
// gathers what the rules need in its one read, however the program reads it. Swift has no
// load-time initializers; the Swift side (signalscopeAnalysisGatherFacts) decides the rest.
extern void signalscope_analysis_gather_facts(void);

__attribute__((constructor)) static void signalscope_analysis_bootstrap(void) {
    signalscope_analysis_gather_facts();
}
