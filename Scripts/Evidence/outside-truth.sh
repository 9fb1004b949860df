#!/usr/bin/env bash
# Six concurrent bodies counted two ways: PerfKit's mallocs per call (perfkit run, release, jemalloc), and an
# independent count: callgrind on a plain release executable of the same bodies, jemalloc preloaded (the allocator
# PerfKit links), every thread's calls into the allocator between two marker functions, over K calls.
# usage: outside-truth.sh [PERFKIT_CHECKOUT] [FOLDER] [K]
set -euo pipefail
perfkit=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
root=${2:-/tmp/ot}; calls=${3:-200}
rm -rf "$root" && mkdir -p "$root" && cd "$root"
git clone -q "$perfkit" perfkit
mkdir -p truth/Sources/Bodies truth/Sources/plain truth/Tests/TruthTests && cd truth
printf '.build/\n.perfkit/\n' > .gitignore
cat > Package.swift <<'SWIFT'
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Truth",
    dependencies: [.package(path: "../perfkit", traits: ["Jemalloc"])],
    targets: [
        .target(name: "Bodies"),
        .executableTarget(name: "plain", dependencies: ["Bodies"]),
        .testTarget(
            name: "TruthTests", dependencies: ["Bodies", .product(name: "PerfKitTesting", package: "perfkit")]),
    ]
)
SWIFT
cat > Sources/Bodies/Bodies.swift <<'SWIFT'
import Dispatch

public final class Box: @unchecked Sendable {
    public var value: Int
    public init(_ value: Int) { self.value = value }
}

public actor Counter {
    var total = 0
    public init() {}
    public func add(_ value: Int) -> Int {
        total &+= value
        return total
    }
}

public enum Bodies {
    /// A task group of 8 children, each building an array of 64.
    public static func taskGroup() async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for child in 0..<8 { group.addTask { (0..<64).map { $0 &* child }.reduce(0, &+) } }
            var total = 0
            for await value in group { total &+= value }
            return total
        }
    }

    /// 16 hops onto an actor.
    public static func actorHop(_ counter: Counter) async -> Int {
        var last = 0
        for value in 0..<16 { last = await counter.add(value) }
        return last
    }

    /// An AsyncStream of 16 values fed by a producer task.
    public static func stream() async -> Int {
        let stream = AsyncStream<Int> { continuation in
            Task {
                for value in 0..<16 { continuation.yield(value) }
                continuation.finish()
            }
        }
        var total = 0
        for await value in stream { total &+= value }
        return total
    }

    /// A channel: a producer task sends 16 values through checked continuations, one at a time.
    public static func channel() async -> Int {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let producer = Task {
            for value in 0..<16 { continuation.yield(value) }
            continuation.finish()
        }
        var total = 0
        for await value in stream { total &+= value }
        await producer.value
        return total
    }

    /// A hand-off to a Dispatch queue that resumes the body at once.
    public static func dispatchHandOff(_ queue: DispatchQueue) async -> Int {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: 7) }
        }
    }

    /// Three objects made and returned.
    public static func returnsObjects() -> (Box, Box, Box) { (Box(1), Box(2), Box(3)) }
}
SWIFT
cat > Sources/plain/main.swift <<'SWIFT'
import Bodies
import Dispatch

// A synchronous main that waits for a task (an async main crashes valgrind 3.19).
@inline(never) func markBegin(_ name: String) { print("begin", name) }
@inline(never) func markEnd(_ name: String) { print("end", name, CommandLine.arguments.count) }  // not merged with markBegin

let calls = Int(CommandLine.arguments[2])!
let which = CommandLine.arguments[1]
let queue = DispatchQueue(label: "truth.handoff")
let counter = Counter()
let done = DispatchSemaphore(value: 0)
// Opaque to the optimizer, as PerfKit's blackHole: what a body returns escapes, so it is not promoted to the stack.
@_optimize(none) @inline(never) func sink<T>(_ value: T) {}
// Detached: top-level code is on the main actor, which the semaphore below blocks.
Task.detached {
    func body() async -> Int {
        switch which {
        case "taskGroup": return await Bodies.taskGroup()
        case "actorHop": return await Bodies.actorHop(counter)
        case "stream": return await Bodies.stream()
        case "channel": return await Bodies.channel()
        case "dispatchHandOff": return await Bodies.dispatchHandOff(queue)
        default:
            let objects = Bodies.returnsObjects()
            sink(objects)
            return 0
        }
    }
    for _ in 0..<3 { sink(await body()) }  // warm-up, as PerfKit's
    markBegin(which)
    for _ in 0..<calls { sink(await body()) }
    markEnd(which)
    done.signal()
}
done.wait()
SWIFT
cat > Tests/TruthTests/TruthBenchmarks.swift <<'SWIFT'
import Bodies
import Dispatch
import PerfKitTesting
import Testing

@Suite struct TruthBenchmarks {
    @Test(.performance()) func taskGroup() async throws { try await measure("taskGroup", async: { await Bodies.taskGroup() }) }
    @Test(.performance()) func actorHop() async throws {
        let counter = Counter()
        try await measure("actorHop", async: { await Bodies.actorHop(counter) })
    }
    @Test(.performance()) func stream() async throws { try await measure("stream", async: { await Bodies.stream() }) }
    @Test(.performance()) func channel() async throws { try await measure("channel", async: { await Bodies.channel() }) }
    @Test(.performance()) func dispatchHandOff() async throws {
        let queue = DispatchQueue(label: "truth.handoff")
        try await measure("dispatchHandOff", async: { await Bodies.dispatchHandOff(queue) })
    }
    @Test(.performance()) func returnsObjects() throws { try measure("returnsObjects") { Bodies.returnsObjects() } }
}
SWIFT
git init -q && git add -A && git -c user.email=u@example.com -c user.name=user commit -qm truth
swift build -c release --product plain 2>&1 | tail -1
jemalloc=$(ls /usr/lib/x86_64-linux-gnu/libjemalloc.so.2)
# valgrind edits libdispatch's read-only sigsuspend mask in place and the process stops (FACTS: valgrind and Swift
# Testing); a sigsuspend of our own that copies the mask, and nothing else, keeps this side independent of PerfKit.
cat > "$root/sigsuspend.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) { sigset_t copy = *mask; return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8); }
C
cc -O2 -shared -fPIC -o "$root/libsigsuspend.so" "$root/sigsuspend.c"
# PerfKit's figures of the same bodies: a timing run of the test target (mallocs per call, release, jemalloc).
"$perfkit/.build/debug/perfkit" run --output "$root/perfkit-run.json" > "$root/perfkit-run.log" 2>&1 || true
echo "| body | callgrind: every thread's allocator calls a call | PerfKit mallocs | PerfKit other-thread mallocs | PerfKit leaked |"
echo "|---|--:|--:|--:|--:|"
for body in taskGroup actorHop stream channel dispatchHandOff returnsObjects; do
    LD_PRELOAD="$jemalloc $root/libsigsuspend.so" valgrind --tool=callgrind --dump-after='*5plain9markBegin*' --dump-before='*5plain7markEnd*' --combine-dumps=no \
        --callgrind-out-file="$root/cg.$body.%p" .build/release/plain "$body" "$calls" > /dev/null 2> "$root/cg.$body.log"
done
python3 - "$root" "$calls" <<'PY'
import glob, json, re, sys
root, calls = sys.argv[1], int(sys.argv[2])
perfkit = {}
try:
    for test in json.load(open(f"{root}/perfkit-run.json"))["tests"]:
        for m in test["measurements"]:
            for s in m["series"]:
                if s["metric"]["name"] in ("mallocs", "otherThreadMallocs", "leakedAllocations"):
                    values = sorted(s["values"])
                    perfkit[(m["name"], s["metric"]["name"])] = values[len(values) // 2]
except (OSError, KeyError, ValueError):
    pass
allocators = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}
for body in ["taskGroup", "actorHop", "stream", "channel", "dispatchHandOff", "returnsObjects"]:
    # The dump taken at markEnd's entry holds the loop: every thread's calls into the allocator.
    files = [f for f in glob.glob(f"{root}/cg.{body}.*") if not f.endswith(".log")]
    loop = [f for f in files if "Trigger: --dump-before" in open(f, errors="replace").read(4000)]
    total = 0
    for path in loop:
        fn_names, callee, pending = {}, None, None
        for line in open(path, errors="replace"):
            m = re.match(r"c(fn|fi|fe)?=\((\d+)\)(?: (.*))?", line) if line.startswith("cfn=") else None
            if line.startswith(("fn=", "cfn=")):
                key, rest = line.split("=", 1)
                m = re.match(r"\((\d+)\)(?: (.*))?", rest.strip())
                if m:
                    ident, name = m.group(1), m.group(2)
                    if name: fn_names[ident] = name
                    name = fn_names.get(ident, "")
                else:
                    name = rest.strip()
                if key == "cfn": callee = name
                else: callee = None
            elif line.startswith("calls=") and callee is not None:
                if callee in allocators: total += int(line.split("=")[1].split()[0])
                callee = None
    mine = perfkit.get((body, "mallocs"))
    other = perfkit.get((body, "otherThreadMallocs"))
    leak = perfkit.get((body, "leakedAllocations"))
    print(f"| {body} | {total / calls:.2f} | {mine} | {other} | {leak} |")
PY
