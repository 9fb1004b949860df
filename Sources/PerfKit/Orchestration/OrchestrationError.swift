/// What can go wrong checking out, building and running revisions: one line each, and whether it
/// is the user's input (a bad revision, a filter that matches nothing) or a child process that
/// failed (a build, a measured process), which the command line reports with different exit codes.
package enum OrchestrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Git cannot resolve the revision.
    case unknownRevision(String)
    /// The working tree has no `Package.swift` here or in a folder above: nothing to build.
    case notAPackage(folder: String)
    /// The revision could not be checked out into its worktree.
    case checkoutFailed(revision: String, path: String)
    /// The release build failed.
    case buildFailed(revision: String, status: Int32)
    /// The build left no test bundle where one was expected.
    case noTestBundle(folder: String)
    /// No measured test matched the filter in a measured process.
    case noMeasuredTests(filter: String, directory: String, status: Int32)
    /// A measured process ended abnormally (killed, or an exit status other than 0 or 1).
    case measuredProcessFailed(description: String, status: Int32)
    /// A helper child process failed or printed something unusable (the message says which).
    case childFailed(String)
    /// A counting run cannot start here (valgrind missing, the shim cannot be built).
    case countingUnavailable(String)
    /// The counting process under valgrind failed; `detail` is valgrind's own line.
    case countingFailed(status: Int32, detail: String)
    /// What was asked cannot be done as asked (a series that is not there, revisions out of order);
    /// the message says why and what would.
    case cannotDo(String)

    /// Whether a child process failed (a build or a measured process), as opposed to bad input.
    package var isChildFailure: Bool {
        switch self {
        case .buildFailed, .noTestBundle, .measuredProcessFailed, .childFailed, .countingFailed: true
        case .unknownRevision, .notAPackage, .checkoutFailed, .noMeasuredTests, .countingUnavailable, .cannotDo: false
        }
    }

    /// One line naming the revision, folder or process and the problem.
    package var description: String {
        switch self {
        case .unknownRevision(let revision): "unknown revision '\(revision)' (git rev-parse could not resolve it)"
        case .notAPackage(let folder):
            "no Package.swift in \(folder) or a folder above; run perfkit inside the Swift package to measure"
        case .checkoutFailed(let revision, let path): "cannot check out \(revision) in \(path)"
        case .buildFailed(let revision, let status): "release build of \(revision) failed (exit \(status))"
        case .noTestBundle(let folder): "no test bundle in \(folder)"
        case .noMeasuredTests(let filter, let directory, let status):
            "no measured test matched '\(filter)' in \(directory) (test process exit \(status))"
        case .measuredProcessFailed(let description, let status):
            "\(description) ended abnormally (status \(status)); its results cannot be trusted"
        case .childFailed(let message): message
        case .countingUnavailable(let message): message
        case .cannotDo(let message): message
        case .countingFailed(let status, let detail):
            "the counting process under valgrind failed (status \(status)): \(detail); no counts were stored"
        }
    }
}
