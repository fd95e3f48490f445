// Starts recording from the environment (SIGNALSCOPE_TRACE) when the program loads, so a
// program can be traced with no code change. Only programs that link the
// SignalScopeAutoTrace product carry this constructor: that product is the opt-in. Swift
// has no load-time initializers, so this one C constructor calls into SignalScopeAutoTrace,
// which decides everything else.
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>

extern void signalscope_bootstrap_from_environment(const char *pattern);

// Whether the kernel started this process with more privilege than its caller has (set-user
// or set-group id, file capabilities): then the environment is the caller's, and letting
// it name a file to create would let anyone create or truncate files as the privileged user.
static int signalscope_runs_privileged(void) {
    return getauxval(AT_SECURE) != 0 || getuid() != geteuid() || getgid() != getegid();
}

__attribute__((constructor)) static void signalscope_bootstrap(void) {
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
