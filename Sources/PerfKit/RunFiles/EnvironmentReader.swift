import Foundation
import PerfKitCore

/// Reads the environment of the current process: machine, git state, toolchain.
///
/// OS access sits here so that everything downstream works on plain values.
public enum EnvironmentReader {
    /// Reads this machine's fingerprint from `/proc`, `uname` and `/etc/os-release`.
    public static func machine() -> MachineFingerprint {
        // Absent off Linux: the fields read from it stay unknown.
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // Absent in some containers: the OS is then unknown.
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os =
            osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? "unknown OS"
        let governor =
            // Absent in most VMs: the governor is then not recorded.
            (try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return MachineFingerprint(
            cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount, kernel: kernel,
            operatingSystem: os, governor: governor, memoryBytes: ProcessInfo.processInfo.physicalMemory)
    }

    /// Reads the environment for a run of code built in `buildConfiguration`.
    /// - Parameters:
    ///   - buildConfiguration: `debug` or `release`.
    ///   - directory: The source checkout whose git state is recorded.
    /// - Returns: The machine, toolchain, allocator and checkout as they are now.
    public static func current(buildConfiguration: String, directory: String = FileManager.default.currentDirectoryPath)
        -> Environment
    {
        // A repository with no commit yet has a branch (git symbolic-ref names it) but no HEAD commit;
        // whether it is a repository is asked only then (one git process less in the usual case).
        let commit =
            Git.answer(["rev-parse", "--verify", "--quiet", "HEAD"], in: directory)
            ?? (Git.answer(["rev-parse", "--git-dir"], in: directory) != nil ? Environment.uncommitted : "unknown")
        var branch =
            Git.answer(["rev-parse", "--abbrev-ref", "HEAD"], in: directory)
            ?? Git.answer(["symbolic-ref", "--short", "HEAD"], in: directory) ?? "unknown"
        if branch == "HEAD" {
            // A detached checkout (an abba worktree, a CI job): name the branches that contain the commit's tip instead
            // of "HEAD".
            let names =
                Git.answer(["branch", "--all", "--points-at", "HEAD", "--format=%(refname:short)"], in: directory) ?? ""
            let candidates = names.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("(") }
            branch = candidates.isEmpty ? "detached" : candidates.joined(separator: ", ")
        }
        let status = Git.answer(["status", "--porcelain", "--untracked-files=no"], in: directory) ?? ""
        let version =
            ChildProcess.output(["swift", "--version"], in: directory)?.split(separator: "\n").first.map(String.init)
            ?? "unknown"
        return Environment(
            commit: commit, branch: branch, dirty: !status.isEmpty, swiftVersion: version,
            buildConfiguration: buildConfiguration, machine: machine(),
            allocator: Jemalloc.verifyIsProcessAllocator() == nil ? "jemalloc" : "system")
    }
}
