// No API: linking this target keeps the signalscope tool from tracing itself.
