#ifndef PERFKIT_CJEMALLOC_SHIM_H
#define PERFKIT_CJEMALLOC_SHIM_H
// Unprefixed jemalloc: linking it replaces the process allocator.
#include <jemalloc/jemalloc.h>
#endif
