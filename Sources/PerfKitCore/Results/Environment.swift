import Foundation

/// Where and how a run was made: source revision, toolchain, build configuration, machine, allocator.
public struct Environment: Sendable, Codable, Equatable {
    /// Git commit of the measured source; ``uncommitted`` in a repository with no commit yet,
    /// `unknown` outside any repository.
    public var commit: String

    /// The commit recorded for a repository that has no commit yet (`git init`, nothing committed).
    public static let uncommitted = "uncommitted"
    /// Git branch, or `unknown`.
    public var branch: String
    /// Whether the working tree had uncommitted changes.
    public var dirty: Bool
    /// The Swift compiler's version line.
    public var swiftVersion: String
    /// `debug` or `release`.
    public var buildConfiguration: String
    /// The machine the run was made on.
    public var machine: MachineFingerprint
    /// The process allocator (`jemalloc` or `system`).
    public var allocator: String
    /// For a run with simulated counts: valgrind's version (`valgrind-3.19.0`); nil otherwise.
    public var valgrind: String? = nil
    /// For a run with simulated counts.
    ///
    /// What valgrind reports of the CPU ("Arch and hwcaps"). glibc picks string routines by CPU features, so counts of
    /// one binary can differ between CPUs.
    public var valgrindCPU: String? = nil
    /// For a run with simulated counts.
    ///
    /// How the counting processes were set up (processes per test, heap shifts, allocator settings); nil in runs from
    /// before it was recorded. Counts taken with another setup are not compared.
    public var countingSetup: CountingSetup? = nil
    /// Whether the release build passed `-enable-testing`.
    ///
    /// It does when the tests `@testable import` a module; it keeps internal declarations visible and can change how
    /// the measured code is optimised. Nil for a plain release build. Part of the build configuration: runs that differ
    /// in it are
    /// neither timed nor counted against each other.
    public var testableBuild: Bool? = nil
    /// The package traits the build was asked for; nil for the package's default traits.
    ///
    /// `--traits`, and `--disable-default-traits` as the first entry `"(no defaults)"`. Part of the build: runs that
    /// differ in it are neither timed nor counted against each other.
    public var traits: [String]? = nil

    /// Whether results come from an optimised build.
    public var isRelease: Bool { buildConfiguration == "release" }

    /// Whether `other` was built the same way: the same configuration, with or without `-enable-testing`.
    public func sameBuild(as other: Environment) -> Bool {
        buildConfiguration == other.buildConfiguration && (testableBuild ?? false) == (other.testableBuild ?? false)
            && (traits ?? []) == (other.traits ?? [])
    }

    /// Creates an environment record.
    public init(
        commit: String, branch: String, dirty: Bool, swiftVersion: String, buildConfiguration: String,
        machine: MachineFingerprint, allocator: String
    ) {
        self.commit = commit
        self.branch = branch
        self.dirty = dirty
        self.swiftVersion = swiftVersion
        self.buildConfiguration = buildConfiguration
        self.machine = machine
        self.allocator = allocator
    }

    /// The build configuration of the code calling this (the module's own optimisation setting).
    public static var currentBuildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }
}

/// The facts about a machine that make its numbers comparable with another's.
public struct MachineFingerprint: Sendable, Codable, Equatable, Hashable {
    /// CPU model name from `/proc/cpuinfo`.
    public var cpuModel: String
    /// Online logical cores.
    public var cores: Int
    /// Kernel release (`uname -r`).
    public var kernel: String
    /// Operating system name from `/etc/os-release`.
    public var operatingSystem: String
    /// CPU frequency governor, where readable.
    public var governor: String?
    /// Physical memory in bytes.
    public var memoryBytes: UInt64

    /// Creates a fingerprint.
    public init(
        cpuModel: String, cores: Int, kernel: String, operatingSystem: String, governor: String?, memoryBytes: UInt64
    ) {
        self.cpuModel = cpuModel
        self.cores = cores
        self.kernel = kernel
        self.operatingSystem = operatingSystem
        self.governor = governor
        self.memoryBytes = memoryBytes
    }

    /// A short stable identifier: a hash of the fields that affect speed.
    public var identifier: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(cpuModel)|\(cores)|\(kernel)|\(memoryBytes / (1 << 30))".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// One line for reports.
    public var summary: String {
        "\(cpuModel), \(cores) cores, \(memoryBytes >> 30) GiB, \(operatingSystem), Linux \(kernel)"
            + (governor.map { ", governor \($0)" } ?? "")
    }
}
