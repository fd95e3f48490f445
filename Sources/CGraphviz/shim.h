// Graphviz's C library (libgvc, libcgraph), for in-process layout and rendering.
// Only SignalScopeRendering imports this module.
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
