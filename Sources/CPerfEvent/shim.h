#ifndef PERFKIT_CPERFEVENT_SHIM_H
#define PERFKIT_CPERFEVENT_SHIM_H
// perf_event_open has no libc wrapper and syscall(2) is variadic, which Swift cannot call.
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <string.h>
#include <stdint.h>
#include <errno.h>

/// Opens a counter of retired instructions for the calling thread, user space only.
/// Returns a file descriptor, or -errno when the kernel refuses (no PMU, paranoid level).
static inline int perfkit_open_instructions_counter(void) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 0;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0) { return -errno; }
    return (int)fd;
}

/// Reads the counter; returns -1 on failure.
static inline int64_t perfkit_read_counter(int fd) {
    uint64_t value = 0;
    if (read(fd, &value, sizeof(value)) != sizeof(value)) { return -1; }
    return (int64_t)value;
}
#endif
