#include "CSignalScopeThreadWords.h"

__thread __attribute__((tls_model("initial-exec"))) uintptr_t signalscope_thread_words[signalscope_thread_word_count];
