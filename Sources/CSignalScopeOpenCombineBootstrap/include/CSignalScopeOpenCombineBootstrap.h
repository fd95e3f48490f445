// The OpenCombine adapter's load-time constructor has no API: see bootstrap.c.

/// The adapter's state for the calling thread (its `ThreadState`, retained; NULL until the
/// thread first hears from OpenCombine while something records). A thread-local word: each
/// value OpenCombine delivers reads it twice, and reading it inline is one instruction where
/// `pthread_getspecific` is a call.
extern __thread __attribute__((tls_model("initial-exec"))) void *_Nullable signalscope_opencombine_thread_slot;

static inline void *_Nullable signalscope_opencombine_thread(void) { return signalscope_opencombine_thread_slot; }

static inline void signalscope_set_opencombine_thread(void *_Nullable state) { signalscope_opencombine_thread_slot = state; }
