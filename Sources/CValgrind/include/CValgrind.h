#ifndef PERFKIT_CVALGRIND_H
#define PERFKIT_CVALGRIND_H
// Callgrind client requests for Swift: valgrind's macros are inline assembly, which Swift cannot
// import, so they are wrapped in functions. Without valgrind's headers (apt `valgrind`) every
// function is a no-op and perfkit_running_on_valgrind() returns 0.

/// Non-zero when the process runs under valgrind (any tool).
int perfkit_running_on_valgrind(void);

/// Whether valgrind's client-request headers were present at build time.
int perfkit_valgrind_headers_present(void);

/// Threads started from inside counted regions so far (by the preloaded shim; 0 without it).
int perfkit_threads_started(void);

/// Starts a counted region: zeroes callgrind's counters, then turns collection on for this thread
/// and, through the preloaded shim, for the threads it starts.
void perfkit_count_begin(void);

/// Ends a counted region: turns collection off, then dumps the counters to the next numbered
/// file (`<callgrind-out-file>.N`) headed `desc: Trigger: Client Request: <label>`.
void perfkit_count_end(const char *label);
#endif
