#ifndef PERFKIT_CLINUX_SHIM_H
#define PERFKIT_CLINUX_SHIM_H
// Linux system calls that Swift cannot call directly: glibc has no wrapper for perf_event_open,
// Swift's Glibc module does not expose renameat2, and syscall(2) is variadic.
#include <linux/perf_event.h>
#include <linux/fs.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <fcntl.h>
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

/// Swaps two existing paths (files or folders) in one atomic step: renameat2 with RENAME_EXCHANGE.
/// Returns 0, or -errno (EINVAL or ENOSYS where the file system or kernel cannot exchange).
static inline int perfkit_exchange_paths(const char *a, const char *b) {
#ifdef RENAME_EXCHANGE
    long result = syscall(__NR_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
    return result == 0 ? 0 : -errno;
#else
    (void)a; (void)b;
    return -ENOSYS;
#endif
}
#endif
