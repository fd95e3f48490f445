// The signalscope tool never records itself: it runs inside commands traced with
// SIGNALSCOPE_TRACE (and may be asked to read the file that names), so recording itself
// would overwrite the traces it is there to read. See CSignalScopeBootstrap.
const int signalscope_opt_out_of_environment_tracing = 1;
