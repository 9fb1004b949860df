import Foundation
import PerfKit
import PerfKitCore
import Testing

/// A sample's count is its dump's total less the runtime's metadata-cache table work.
///
/// A sample's count is its dump's total less the runtime's metadata-cache table work
/// (``DumpCount``), and the call graph a profile reads leaves the same work out.
struct DumpCountTests {
    /// The outer `getOrInsert` as callgrind names it, and the inner table's.
    ///
    /// The outer `getOrInsert` as callgrind names it, and the inner table's, whose template
    /// arguments name the outer one (a pattern that matched both would nest).
    static let outer = [
        "std::pair<swift::GenericCacheEntry*, bool> swift::StableAddressConcurrentReadableHashMap<",
        "swift::GenericCacheEntry, swift::TaggedMetadataAllocator<(unsigned short)14>, swift::Mutex>::",
        "getOrInsert<swift::MetadataCacheKey>(swift::MetadataCacheKey)",
    ].joined()
    static let inner = [
        "void swift::ConcurrentReadableHashMap<swift::HashMapElementWrapper<swift::GenericCacheEntry>, ",
        "swift::Mutex>::getOrInsert<swift::MetadataCacheKey, ", outer,
        "::{lambda(swift::HashMapElementWrapper<swift::GenericCacheEntry>*, bool)#1}>",
        "(swift::MetadataCacheKey, auto const&)",
    ].joined()

    /// A body that looks up metadata twice, whose cache table work is left out of its count.
    ///
    /// A body (1,000 instructions of its own) that looks up metadata twice through
    /// `swift_getGenericMetadata` (60 of its own each time), whose `getOrInsert` takes 300 and 200
    /// inclusive (its own lines, the inner table's and a key comparison); names compressed as
    /// callgrind writes them.
    static let dump = """
        events: Ir
        fn=(1) $s4Main4bodyyyF
        5 1000
        cfn=(2) swift_getGenericMetadata
        calls=2 0
        6 620
        fn=(2)
        1 120
        cfn=(3) \(outer)
        calls=2 0
        2 500
        fn=(3)
        3 150
        cfn=(4) \(inner)
        calls=1 0
        4 300
        cfn=(5) swift::MetadataCacheKey::operator==(swift::MetadataCacheKey const&) const
        calls=1 0
        4 50
        fn=(4)
        7 280
        cfn=(5)
        calls=1 0
        7 20
        fn=(5)
        8 70
        totals: 1620
        """

    @Test func theOuterGetOrInsertIsUncountedAndTheInnerIsNot() {
        #expect(DumpCount.isUncounted(Self.outer))
        #expect(!DumpCount.isUncounted(Self.inner))
        #expect(!DumpCount.isUncounted("swift_getGenericMetadata"))
    }

    /// 1,620 less the 500 the lookup spent in `getOrInsert`.
    ///
    /// The calls inside it (to the inner table and a comparison) are in those 500 already and are not subtracted again.
    @Test func aCountIsTheTotalLessTheCallsIntoTheCacheTable() {
        #expect(DumpCount.instructions(ofText: Self.dump) == 1_120)
        #expect(DumpCount.instructions(ofText: "events: Ir\nfn=(1) f\n1 10\nsummary: 10\n") == 10)
        #expect(DumpCount.instructions(ofText: "events: Ir\n") == nil)
    }

    /// A parsed dump's total is the count.
    ///
    /// Its call graph keeps the table work (a call carries no path, so the body's inclusive cannot be lessened by what
    /// a callee spent in the table).
    @Test func aParsedDumpsTotalIsTheCountAndItsGraphIsWhole() {
        let parsed = CallgrindDump(parsing: Self.dump)
        #expect(parsed.totals == 1_120)
        #expect(parsed.inclusive["$s4Main4bodyyyF"] == 1_620)
        #expect(parsed.inclusive[Self.outer] == 500)
    }
}
