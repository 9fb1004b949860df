#include "CValgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PERFKIT_HAS_VALGRIND 1
#endif
#endif

#ifdef PERFKIT_HAS_VALGRIND
int perfkit_running_on_valgrind(void) { return (int)RUNNING_ON_VALGRIND; }
int perfkit_valgrind_headers_present(void) { return 1; }
/* The counting process starts with instrumentation off (--instr-atstart=no) and collection on.
   Instrumentation is process-wide, unlike collection (each thread has its own collect state, so
   toggling it would leave threads the body starts uncounted): every thread that runs while the
   body does is counted, in its own per-thread file (--separate-threads=yes). */
void perfkit_count_begin(void) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
}
void perfkit_count_end(const char *label) {
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(label);
}
#else
int perfkit_running_on_valgrind(void) { return 0; }
int perfkit_valgrind_headers_present(void) { return 0; }
void perfkit_count_begin(void) {}
void perfkit_count_end(const char *label) { (void)label; }
#endif
