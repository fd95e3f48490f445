// What the fuzz target needs from libFuzzer; see Sources/signalscope-fuzz.

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, present only in a `-sanitize=fuzzer` build (`make fuzz`): the fuzz
/// target runs it from its own `main`, because SwiftPM renames an executable's `main` and
/// so libFuzzer's cannot be used.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
