import Foundation
import PerfKitCore

/// A revision checked out and ready to build: `.` (the working tree) or a git worktree of a commit.
package struct Revision: Sendable, Equatable {
    /// As given on the command line.
    package var name: String
    /// The package directory (`.` for the working tree).
    package var directory: String
    /// The resolved commit, with `+dirty` for a working tree with changes.
    package var commit: String
    /// SwiftPM's trait flags for its builds (`--traits A,B`, `--disable-default-traits`); empty for the defaults.
    package var traitFlags: [String] = []
    /// The build system SwiftPM builds with (`--build-system`); nil for SwiftPM's default.
    package var buildSystem: BuildSystem?
    /// Whether the worktree's manifests name a path dependency outside the repository (``PathDependencies``).
    ///
    /// What it builds then depends on files the commit does not hold.
    package var pinsOutsideRepository = false

    /// A revision.
    package init(name: String, directory: String, commit: String) {
        self.name = name
        self.directory = directory
        self.commit = commit
    }

    /// The environment record of this revision's release build on this machine.
    /// - Parameter machine: The machine's fingerprint (read once per comparison).
    /// - Returns: The environment, with this revision's commit.
    package func environment(machine: MachineFingerprint) -> Environment {
        var environment = EnvironmentReader.current(buildConfiguration: "release", directory: directory)
        environment.commit = commit
        // Dirty as the revision was resolved: a worktree's status shows PerfKit's own manifest rewrite (pinned path
        // dependencies), never a change of the user's.
        environment.dirty = commit.hasSuffix("+dirty")
        environment.machine = machine
        environment.testableBuild = testableBuild
        environment.traits = Self.recordedTraits(traitFlags)
        return environment
    }

    /// The traits a run records from its flags: nil for the defaults.
    package static func recordedTraits(_ flags: [String]) -> [String]? {
        guard !flags.isEmpty else { return nil }
        var traits: [String] = flags.contains("--disable-default-traits") ? ["(no defaults)"] : []
        if let index = flags.firstIndex(of: "--traits"), index + 1 < flags.count {
            traits += flags[index + 1].split(separator: ",").map(String.init)
        }
        return traits
    }

    /// Where worktrees live, kept between invocations so rebuilds are incremental.
    package static let worktreeRoot = ".perfkit/worktrees"

    /// Resolves a revision to its commit without creating anything, so both revisions of an
    /// `abba` can be checked before either worktree exists.
    /// - Parameters:
    ///   - revision: A git revision, or `.` for the working tree.
    ///   - directory: The package folder (the current one when nil).
    /// - Returns: The commit.
    /// - Throws: ``OrchestrationError/unknownRevision(_:said:)`` quoting git.
    package static func resolve(_ revision: String, in directory: String? = nil) throws(OrchestrationError) -> String {
        if revision == "." { return Git.answer(["rev-parse", "HEAD"], in: directory) ?? "unknown" }
        do { return try Git.commit(revision, in: directory) } catch {
            throw .unknownRevision(revision, said: ChildProcess.lastWords(error.said, lines: 1))
        }
    }

    /// The Swift package a folder belongs to: the nearest folder at or above it holding a
    /// `Package.swift`.
    /// - Parameter folder: Where to start (an absolute path).
    /// - Returns: The package's folder, or nil outside any package.
    package static func packageRoot(containing folder: String) -> String? {
        var url = URL(fileURLWithPath: folder)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            let parent = url.deletingLastPathComponent()
            guard parent.path != url.path else { return nil }
            url = parent
        }
        return url.path
    }

    /// Checks `revision` out into its own worktree under ``worktreeRoot`` (`.` is the working tree itself).
    ///
    /// A path dependency inside the repository then resolves to the revision's own copy in the worktree; one outside it
    /// is pinned to its absolute folder in the worktree's manifests (``PathDependencies``), and the progress line names
    /// both.
    /// - Parameters:
    ///   - revision: A git revision, or `.`.
    ///   - worktree: The worktree's folder name under ``worktreeRoot`` (default: the revision's
    ///     name); two names give two separate builds of one commit, as calibration needs.
    ///   - root: The package folder in the working tree (default: the current directory).
    ///   - progress: Receives one line per step worth telling.
    /// - Returns: The prepared revision; its ``directory`` is the package's folder inside the
    ///   worktree (the worktree itself when the package is at the repository's top).
    /// - Throws: ``OrchestrationError`` for a working tree that is not a package, a revision git
    ///   does not know (no worktree is left behind) or a failed checkout (git's words quoted);
    ///   ``FileError`` when a manifest cannot be rewritten.
    package static func prepare(
        _ revision: String, worktree: String? = nil, root: String? = nil, progress: (String) -> Void = { _ in }
    ) throws -> Revision {
        let folder = root ?? FileManager.default.currentDirectoryPath
        if revision == "." {
            guard FileManager.default.fileExists(atPath: folder + "/Package.swift") else {
                throw OrchestrationError.notAPackage(folder: folder)
            }
            let head = Git.answer(["rev-parse", "HEAD"], in: folder) ?? "unknown"
            let status = Git.answer(["status", "--porcelain", "--untracked-files=no"], in: folder) ?? ""
            return Revision(name: ".", directory: ".", commit: head + (status.isEmpty ? "" : "+dirty"))
        }
        let commit = try resolve(revision, in: folder)
        let name = String(
            (worktree ?? revision).map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        let path = worktreeRoot + "/" + name
        let absolute = folder + "/" + path
        if FileManager.default.fileExists(atPath: absolute + "/.git") {
            do { try Git.run(["-C", absolute, "checkout", "--quiet", "--force", "--detach", commit]) } catch {
                throw OrchestrationError.checkoutFailed(revision: revision, path: path, said: error.description)
            }
        } else {
            // A folder that cannot be made fails `git worktree add` just below, quoted.
            try? FileManager.default.createDirectory(
                atPath: folder + "/" + worktreeRoot, withIntermediateDirectories: true)
            do { try Git.run(["worktree", "add", "--quiet", "--detach", "--force", path, commit], in: folder) } catch {
                _ = Git.answer(["worktree", "remove", "--force", path], in: folder)
                _ = Git.answer(["worktree", "prune"], in: folder)
                throw OrchestrationError.checkoutFailed(revision: revision, path: path, said: error.description)
            }
        }
        // The package may sit below the repository's top: the worktree holds the whole repository.
        let prefix = Git.answer(["rev-parse", "--show-prefix"], in: folder) ?? ""
        let package =
            prefix.isEmpty ? path : path + "/" + prefix.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let repository = Git.topLevel(of: folder) ?? folder
        let pinned = try PathDependencies.pin(worktree: absolute, repository: repository)
        if let line = pinned.progressLine(worktree: path) { progress(line) }
        let carried = try ResolutionState.carry(
            from: folder, to: package.hasPrefix("/") ? package : folder + "/" + package, commit: commit,
            prefix: prefix)
        if let line = ResolutionState.progressLine(carried, worktree: path) { progress(line) }
        if let hint = gitignoreHint(in: folder) { progress(hint) }
        var prepared = Revision(name: revision, directory: package, commit: commit)
        prepared.pinsOutsideRepository = pinned.reachesOutside
        return prepared
    }

    /// The hint that `.perfkit/` belongs in `.gitignore`, when it is not there.
    static func gitignoreHint(in folder: String) -> String? {
        // No .gitignore: the hint is given.
        let ignore = (try? String(contentsOfFile: folder + "/.gitignore", encoding: .utf8)) ?? ""
        guard !ignore.split(separator: "\n").contains(where: { $0.hasPrefix(".perfkit") || $0.hasPrefix("/.perfkit") })
        else { return nil }
        return "perfkit: worktrees, builds and run files live in .perfkit/; add the line '.perfkit/' to .gitignore"
    }

    /// Code-alignment flags for builds that are compared with each other.
    ///
    /// Every function and every block that is not a fall-through starts on a 64-byte boundary, so a change elsewhere in
    /// the binary does not shift the alignment of unchanged code (which moved unchanged subjects by up to ±5% between
    /// two builds on this machine).
    package static let pinnedLayoutFlags = ["-align-all-functions=6", "-align-all-nofallthru-blocks=6"].flatMap {
        ["-Xswiftc", "-Xllvm", "-Xswiftc", $0]
    }

    /// The flag a release build of tests that `@testable import` a module needs.
    ///
    /// Without it the compiler refuses ("module … was not compiled for testing"), as in apple/swift-algorithms. It
    /// keeps internal declarations visible to other modules, which can leave some code less optimized than a plain
    /// release build; both sides of a comparison of one package get it alike.
    package static let testableFlags = ["-Xswiftc", "-enable-testing"]

    /// Whether this revision's release build passes ``testableFlags``, as its environment records it.
    ///
    /// Whether this revision's release build passes ``testableFlags`` (``usesTestableImport(in:)``),
    /// as its environment records it (``Environment/testableBuild``); nil for a plain build. A test
    /// target outside `Tests/` is found only by the build's error, and its runs record a plain build.
    package var testableBuild: Bool? { Self.usesTestableImport(in: directory) ? true : nil }

    /// Added to the environment of every `swift build` PerfKit runs: SwiftPM's own hashing made deterministic.
    ///
    /// SwiftPM 6.3 writes a package's enabled traits into its compile commands (`-DJemalloc -DHistory`) in a `Set`'s
    /// order, which each process's random hash seed picks, so a new build plan could reorder them, change every compile
    /// command of that package, and recompile it and all that depends on it with nothing changed (swift-protobuf, two
    /// traits: 1,676.2 s when two plans differed in nothing but their order). SwiftPM 6.4 sorts them
    /// (swiftlang/swift-package-manager d2388ec93); with the seed fixed, 6.3 orders them alike in every plan too.
    /// Measured code never sees this variable.
    package static let buildEnvironment = ["SWIFT_DETERMINISTIC_HASHING": "1"]

    /// The progress line of a build with ``testableFlags``.
    package static let testableLine =
        "perfkit: the tests use @testable import, so the release build passes -enable-testing (internal declarations "
        + "stay visible to other modules)"

    /// Whether a Swift file under `directory/Tests` has a line starting `@testable import`.
    ///
    /// A test target declared
    /// elsewhere is found by the build's own error instead, ``BuildLog/isNotTestable(_:)``.
    package static func usesTestableImport(in directory: String) -> Bool {
        let tests = directory + "/Tests"
        guard let files = FileManager.default.enumerator(atPath: tests) else { return false }
        for case let file as String in files where file.hasSuffix(".swift") {
            // A statement, not a comment or string that names one (PerfKit's own tests name it in a
            // comment, and a scan of the text built the calendar suite with -enable-testing).
            if let text = try? String(contentsOfFile: tests + "/" + file, encoding: .utf8),
                text.split(separator: "\n").contains(where: {
                    $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("@testable import ")
                })
            {
                return true
            }
        }
        return false
    }

    /// The build folder of a release build.
    ///
    /// `.perfkit/build` by every route (the plugin's, where `swift package` holds `.build`'s lock, and the tool's
    /// own binary), so one route's build serves the other; `PERFKIT_SCRATCH_PATH` overrides it; `.perfkit/build-pinned`
    /// for the working tree's pinned-layout build.
    package static func scratchPath(pinnedLayout: Bool = false) -> String {
        pinnedLayout
            ? ".perfkit/build-pinned" : ProcessInfo.processInfo.environment["PERFKIT_SCRATCH_PATH"] ?? defaultScratch
    }

    /// Where release builds go unless `PERFKIT_SCRATCH_PATH` says otherwise.
    package static let defaultScratch = ".perfkit/build"

    /// The product SwiftPM links a package's test targets into, `<package name>PackageTests`.
    ///
    /// The name is
    /// read from the manifest (`swift package dump-package`, 0.6–2 s); nil when it cannot be read. Building
    /// that product builds what the tests need and nothing more, where `--build-tests` builds every
    /// target: swift-protobuf's C++ `protoc` and its plugin's executables, swift-argument-parser's
    /// examples. The test bundle's code is the same either way (`SharedBuildTests`), and one build after
    /// the other compiles nothing again.
    /// - Parameters:
    ///   - directory: The package folder.
    ///   - scratch: The build folder (under the plugin, not `.build`, whose lock SwiftPM holds).
    /// - Returns: The test product's name, or nil.
    package static func testProduct(in directory: String, scratch: String) -> String? {
        struct Manifest: Decodable { var name: String }
        guard
            let json = ChildProcess.output(
                ["swift", "package", "--scratch-path", scratch, "dump-package"], in: directory),
            // An unreadable manifest: every target is built with --build-tests instead.
            let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(json.utf8))
        else { return nil }
        return manifest.name + "PackageTests"
    }

    /// Builds the package's tests in release.
    ///
    /// The test product alone (``testProduct(in:scratch:)``), or every target with `--build-tests` when the manifest
    /// cannot be read or SwiftPM has no such product. A build that fails the way a stale build plan fails (files the
    /// plan names are gone, as after a checkout that deleted them) is retried once from a fresh plan, saying so in one
    /// line. A folder whose build stamp names another toolchain or a test bundle other than the one there
    /// (``BuildStamp``) is emptied first, and a build that fails the way damaged products fail is retried once from an
    /// empty folder, each with a note.
    /// - Parameters:
    ///   - pinnedLayout: Whether to build with ``pinnedLayoutFlags``, for builds that are compared
    ///     with each other (`abba`, `calibrate`). The working tree then builds into
    ///     `.perfkit/build-pinned`, so the ordinary release build is left alone.
    ///   - sharedScratch: An absolute build folder to build into instead of the revision's own (``BuildFolder``).
    ///   - progress: Receives one line when the build starts.
    /// - Returns: The path of the test bundle.
    /// - Throws: ``OrchestrationError/buildFailed(revision:ending:firstError:)`` quoting SwiftPM's
    ///   first error, or ``OrchestrationError/noTestBundle(folder:)``.
    package func build(
        pinnedLayout: Bool = false, sharedScratch: String? = nil, progress: (String) -> Void = { _ in }
    ) throws -> String {
        progress("perfkit: building \(name) (\(commit.prefix(12))) in release in \(directory)…")
        let started = ContinuousClock.now
        let bundle = try ProgressBoard.shared.during(.building(revision: name)) {
            do {
                return try buildBundle(pinnedLayout: pinnedLayout, sharedScratch: sharedScratch, progress: progress)
            } catch OrchestrationError.severalTestRunners(_, let runners) where buildSystem == .swiftbuild {
                progress(
                    "perfkit: Swift Build made a test runner per test target (\(runners.joined(separator: ", "))); "
                        + "perfkit measures one test bundle, so it builds with --build-system native instead")
                var native = self
                native.buildSystem = .native
                return try native.buildBundle(
                    pinnedLayout: pinnedLayout, sharedScratch: sharedScratch, progress: progress)
            }
        }
        progress("perfkit: built \(name) in \(ProgressBoard.Snapshot.elapsed(ContinuousClock.now - started))")
        return bundle
    }

    /// ``build(pinnedLayout:sharedScratch:progress:)``'s work: SwiftPM run, retried as its failures ask.
    ///
    /// Swift Build links one test runner per test target, and perfkit measures one process's tests: for a package with
    /// several, the build is made again with the native build system, saying so.
    ///
    /// Always from a fresh plan: SwiftPM reuses its cached plan while the manifests are unchanged, and then neither
    /// sees a source file added to a local package (it built the old code and said "Build complete") nor one removed
    /// ("missing inputs"). Planning again costs 2 s in a small package and 5 s in swift-protobuf (0.5 s with the plan
    /// kept), and recompiles only what changed (``buildEnvironment`` keeps a new plan's commands as they were).
    private func buildBundle(
        pinnedLayout: Bool, sharedScratch: String?, progress: (String) -> Void
    ) throws -> String {
        let scratch = sharedScratch ?? Self.scratchPath(pinnedLayout: pinnedLayout && directory == ".")
        var testable = testableBuild ?? false
        if testable { progress(Self.testableLine) }
        var product = Self.testProduct(in: directory, scratch: scratch)
        var command: [String] {
            ["swift", "build", "-c", "release"] + traitFlags
                + (buildSystem.map { ["--build-system", $0.rawValue] } ?? [])
                + (product.map { ["--product", $0] } ?? ["--build-tests"])
                + ["--scratch-path", scratch] + (pinnedLayout ? Self.pinnedLayoutFlags : [])
                + (testable ? Self.testableFlags : [])
        }
        func swiftBuild() throws -> ChildProcess.Finished {
            try ChildProcess.runKeepingErrors(
                command, in: directory, environment: Self.buildEnvironment, output: .standardErrorAndCapture,
                showErrors: true)
        }
        let folder = scratch.hasPrefix("/") ? scratch : directory + "/" + scratch
        let toolchain = BuildStamp.prepare(folder: folder, named: scratch, in: directory, progress: progress)
        BuildLog.removePlan(scratch: folder)
        var finished = try swiftBuild()
        if finished.status != 0, BuildLog.isDamagedProduct(finished) {
            progress(
                "perfkit: \(scratch) holds a damaged or foreign build product (\(BuildLog.firstError(finished))); "
                    + "building it afresh")
            BuildStamp.startAfresh(folder: folder)
            finished = try swiftBuild()
        }
        if finished.status != 0, let name = product, BuildLog.isUnknownProduct(finished) {
            product = nil
            progress("perfkit: SwiftPM has no product \(name); building every target with --build-tests")
            finished = try swiftBuild()
        }
        if finished.status != 0, BuildLog.isStalePlan(finished) {
            progress(
                "perfkit: the release build's plan named files that are gone; building once more from a fresh plan")
            BuildLog.removePlan(scratch: folder)
            finished = try swiftBuild()
        }
        if finished.status != 0, !testable, BuildLog.isNotTestable(finished) {
            testable = true
            progress(Self.testableLine)
            finished = try swiftBuild()
        }
        guard finished.status == 0 else {
            throw OrchestrationError.buildFailed(
                revision: name, ending: finished.ending, firstError: BuildLog.firstError(finished))
        }
        // Where the products are, as SwiftPM says: `release` natively, `out/Products/Release-linux` with Swift Build.
        let shown = ChildProcess.output(command + ["--show-bin-path"], in: directory)
        let bundle = try Self.testBundle(in: Self.productsFolder(shown: shown, folder: folder, directory: directory))
        BuildStamp.record(bundle: bundle, in: folder, toolchain: toolchain)
        return bundle
    }

    /// The products folder SwiftPM showed (`--show-bin-path`), as a path under the build folder `folder` as given.
    ///
    /// SwiftPM shows it absolute and with its real path: natively that is `folder/release`, a link to it.
    static func productsFolder(shown: String?, folder: String, directory: String) -> String {
        let native = folder + "/release"
        guard let shown else { return native }
        func real(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let products = real(shown.hasPrefix("/") ? shown : directory + "/" + shown)
        if real(native) == products { return native }
        let base = real(folder)
        return products.hasPrefix(base + "/") ? folder + "/" + products.dropFirst(base.count + 1) : products
    }

    /// The test bundle SwiftPM linked into the products folder `products`.
    ///
    /// The native build system's one `<Package>PackageTests.xctest`, or Swift Build's test runner when the package has
    /// one test target (`<Target>-test-runner`).
    /// - Throws: ``OrchestrationError/noTestBundle(folder:)`` when there is none;
    ///   ``OrchestrationError/severalTestRunners(folder:runners:)`` for Swift Build's runners of several test targets.
    package static func testBundle(in products: String) throws -> String {
        let names = FileManager.default.names(in: products)
        if let bundle = names.first(where: { $0.hasSuffix("PackageTests.xctest") }) { return products + "/" + bundle }
        let runners = names.filter { $0.hasSuffix("-test-runner") }.sorted()
        guard runners.count <= 1 else {
            throw OrchestrationError.severalTestRunners(folder: products, runners: runners)
        }
        guard let runner = runners.first else { throw OrchestrationError.noTestBundle(folder: products) }
        return products + "/" + runner
    }
}
