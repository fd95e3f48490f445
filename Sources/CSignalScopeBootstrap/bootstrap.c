// Starts recording from the environment (SIGNALSCOPE_TRACE) when the program loads, so a
// program can be traced with no code change. Swift has no load-time initializers, so this
// one C constructor calls into SignalScopeTracing, which decides everything else.
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

extern void signalscope_bootstrap_from_environment(const char *pattern);

// Defined only by programs that must never trace themselves (the signalscope tool, which
// links the library but runs inside traced commands and reads the very files
// SIGNALSCOPE_TRACE names). Weak, so every other program links without it.
extern const int signalscope_opt_out_of_environment_tracing __attribute__((weak));

// Whether the kernel started this process with more privilege than its caller has (set-user
// or set-group id, file capabilities): then the environment is the caller's, and letting
// it name a file to create would let anyone create or truncate files as the privileged user.
static int signalscope_runs_privileged(void) {
#if defined(__linux__)
    return getauxval(AT_SECURE) != 0 || getuid() != geteuid() || getgid() != getegid();
#else
    return issetugid() != 0;
#endif
}

__attribute__((constructor)) static void signalscope_bootstrap(void) {
    if (&signalscope_opt_out_of_environment_tracing != 0) return;
    const char *pattern = getenv("SIGNALSCOPE_TRACE");
    if (pattern == NULL || pattern[0] == '\0') return;
    if (signalscope_runs_privileged()) {
        static const char refusal[] =
            "signalscope: not recording: SIGNALSCOPE_TRACE is ignored in a set-id or privileged process\n";
        (void)!write(STDERR_FILENO, refusal, sizeof refusal - 1);
        return;
    }
    signalscope_bootstrap_from_environment(pattern);
}
