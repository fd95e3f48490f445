#ifndef SIGNALSCOPE_THREAD_WORDS_H
#define SIGNALSCOPE_THREAD_WORDS_H

#include <stdint.h>

/// The runtime's words per thread, by what each holds.
typedef enum signalscope_thread_word_slot {
    /// While a subscription's creation block runs: that subscription's id.
    signalscope_thread_word_current_subscription,
    /// While a disposal cascade runs: the cause its subscriptions report.
    signalscope_thread_word_disposal_cause,
    signalscope_thread_word_count
} signalscope_thread_word_slot;

/// The words themselves: thread-local storage read and written inline, in one or two
/// instructions, where `pthread_getspecific` and `pthread_setspecific` are calls into the C
/// library (each traced subscribe set and read them several times).
extern __thread __attribute__((tls_model("initial-exec"))) uintptr_t signalscope_thread_words[signalscope_thread_word_count];

static inline uintptr_t signalscope_thread_word(signalscope_thread_word_slot slot) { return signalscope_thread_words[slot]; }

static inline void signalscope_set_thread_word(signalscope_thread_word_slot slot, uintptr_t value) {
    signalscope_thread_words[slot] = value;
}

#endif
