import PerfKitCore

extension Environment {
    /// The fields that make simulated counts incomparable and differ between the two.
    ///
    /// Toolchain, valgrind version, build configuration, allocator, counting setup (``countingSetup``; a run that did
    /// not record it counts as another setup). The machine itself does not matter.
    /// - Parameter other: The other side's environment.
    /// - Returns: The names of the fields that differ; empty when counts are comparable.
    public func countingDifferences(from other: Environment) -> [String] {
        var fields: [String] = []
        if swiftVersion != other.swiftVersion { fields.append("toolchain") }
        if (valgrind ?? "none") != (other.valgrind ?? "none") { fields.append("valgrind version") }
        if !sameBuild(as: other) { fields.append("build configuration") }
        if allocator != other.allocator { fields.append("allocator") }
        if valgrind != nil, other.valgrind != nil {
            if let mine = countingSetup, let theirs = other.countingSetup {
                fields += mine.differences(from: theirs).map { "counting setup (\($0))" }
            } else if countingSetup != other.countingSetup {
                fields.append("counting setup (not recorded on one side)")
            }
        }
        return fields
    }

    /// The fields that make timing and OS-memory figures of two environments incomparable, named for a report.
    ///
    /// CPU model, core count, memory, OS, kernel, toolchain, allocator, build configuration.
    /// - Parameter other: The other side's environment.
    /// - Returns: The names of the fields that differ, in that order; empty when the machines match.
    public func machineDifferences(from other: Environment) -> [String] {
        var fields: [String] = []
        if machine.cpuModel != other.machine.cpuModel { fields.append("CPU model") }
        if machine.cores != other.machine.cores { fields.append("core count") }
        if machine.memoryBytes >> 30 != other.machine.memoryBytes >> 30 { fields.append("memory") }
        if machine.operatingSystem != other.machine.operatingSystem { fields.append("OS") }
        if machine.kernel != other.machine.kernel { fields.append("kernel") }
        if swiftVersion != other.swiftVersion { fields.append("toolchain") }
        if allocator != other.allocator { fields.append("allocator") }
        if !sameBuild(as: other) { fields.append("build configuration") }
        return fields
    }
}
