import Dispatch
import Foundation
import PerfKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM: children are stopped, temporary folders removed, and the tool exits 130 or 143.
///
/// Ctrl-C and SIGTERM: the signal is forwarded to every process group the tool started (builds,
/// measured bundles, valgrind), `perfkit` waits for them, removes its temporary folders and exits
/// 130 (SIGINT) or 143 (SIGTERM). Stored files are never half-written: every write is atomic.
package enum Interrupts {
    /// The dispatch sources must live as long as the process.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// The signal being handled, or 0. Shared between the handler's queue and the main thread.
    private static let received = Atomic<Int32>(0)

    /// Called before `perfkit` exits.
    ///
    /// When an interrupt is being handled, the main thread (which may have seen its child end) leaves the exit to the
    /// handler, so the status is 130 or 143.
    package static func deferToHandler() {
        guard received.load(ordering: .acquiring) != 0 else { return }
        while true { sleep(60) }
    }

    /// Installs the handlers (once, before any child is started).
    package static func install(tool: String = "perfkit") {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                received.store(signalNumber, ordering: .releasing)
                Output.progress("\(tool): interrupted; stopping the processes it started…")
                ChildRegistry.terminateAll(signal: signalNumber)
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
