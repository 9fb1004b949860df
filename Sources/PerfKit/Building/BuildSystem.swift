/// The build system SwiftPM builds a package with (`swift build --build-system`).
///
/// SwiftPM's own (`native`, the default up to Swift 6.3) links every test target into one
/// `<Package>PackageTests.xctest`;
/// Swift Build (`swiftbuild`, a preview in 6.3 and the default from 6.4) links a `<Target>-test-runner` per test target
/// into another folder. perfkit asks SwiftPM where the products are (`--show-bin-path`) either way.
package enum BuildSystem: String, Sendable, CaseIterable {
    /// SwiftPM's native build system.
    case native
    /// Swift Build.
    case swiftbuild
}
