import Foundation
import PerfKit
import Testing

/// Names in reports are demangled in process, exactly as `swift demangle --simplified` prints them.
@Suite struct SimplifiedDemanglerTests {
    /// Symbols of the kinds a counting run's dumps name, and names that are not Swift's.
    ///
    /// Generic specializations, closures, async functions and their continuations, accessors, witnesses, thunks.
    static let names = [
        "$sSa6appendyyxnF", "$sSD11removeValue6forKeyq_Sgx_tF", "$s4main3FooV3baryyF",
        "$sSS10FoundationE4dataSSSg_tcfC", "$ss6resumeyyxnlF", "$sScG7addTask8priority9operationyScPSg_xyYaYAcntF",
        "$s14CalendarSubjects8ViewportV6scroll2byySd_tF", "$sSo8NSStringC3fooyyFTo",
        "$sSa9_copyToNewyyF8MyModule4NodeC_Tg5", "$s6Module3fooyyYacTY0_", "$sSDyq_Sgxcis",
        "$s4main1PPAAE1fyyFTW", "$sIeg_IeyB_TR", "malloc", "_ZN5swift8Demangle4NodeE",
    ]

    @Test func theToolchainsLibraryIsFoundAndUsed() {
        #expect(SimplifiedDemangler.library() != nil)
        #expect(SimplifiedDemangler.isInProcess)
    }

    /// The outside reference: the `swift demangle` process on the same names.
    @Test func inProcessNamesAreTheToolsByteForByte() throws {
        let inProcess = SimplifiedDemangler.demangle(Self.names)
        let tool = SimplifiedDemangler.demangledByTheTool(Self.names.filter { $0.hasPrefix("$s") })
        try #require(!tool.isEmpty, "swift demangle answered nothing")
        // A name the demangler cannot read is printed by the tool as it is, and left as it is here.
        for name in Self.names where name.hasPrefix("$s") {
            #expect((inProcess[name] ?? name) == (tool[name] ?? name), "\(name)")
        }
        #expect(inProcess.count >= 8, "\(inProcess)")
        #expect(inProcess["malloc"] == nil && inProcess["_ZN5swift8Demangle4NodeE"] == nil)
        #expect(inProcess["$s4main3FooV3baryyF"] == "Foo.bar()")
    }
}
