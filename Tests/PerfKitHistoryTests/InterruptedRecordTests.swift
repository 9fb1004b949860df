import CSQLite
import Foundation
import PerfKit
import PerfKitHistory
import Testing

/// A record killed half-way leaves SQLite's hot journal beside the store: the file then holds part of the transaction.
///
/// Made here without a kill, so it is the same every time: the store and its journal are copied while a transaction
/// that spilled pages to the file is still open.
@Suite struct InterruptedRecordTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-hot-\(UUID().uuidString)")
        .path

    /// Copies `store` with a transaction that deleted every row half-way through, to `copy`.
    static func copyMidTransaction(_ store: String, to copy: String) throws {
        var handle: OpaquePointer?
        #expect(sqlite3_open_v2(store, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        // One page of cache: the deletion spills changed pages to the file before the commit.
        for sql in ["PRAGMA cache_size = 1", "BEGIN IMMEDIATE", "DELETE FROM perfkit_history"] {
            #expect(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, "\(sql)")
        }
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: store + suffix, toPath: copy + suffix)
        }
        #expect(sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    }

    @Test func aReaderRollsBackAnInterruptedRecordAndReadsTheStoreAsItWas() throws {
        let store = folder + "/h.sqlite", copy = folder + "/interrupted.sqlite"
        let recorder = try HistoryStore(store, create: true)
        let entries = (1...300).flatMap { HistoryStoreTests.entries(commit: $0, value: Double($0)) }
        try recorder.record(entries)
        let written = try HistoryStore(store, create: false).entries()
        #expect(written.count == 900)
        try Self.copyMidTransaction(store, to: copy)
        // The copy's file really is half-written: SQLite's own read-only open refuses it.
        var handle: OpaquePointer?
        #expect(sqlite3_open_v2(copy, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "SELECT count(*) FROM perfkit_history", nil, nil, nil) == SQLITE_READONLY)
        #expect(sqlite3_extended_errcode(handle) == SQLITE_READONLY | (3 << 8))
        sqlite3_close(handle)

        #expect(try HistoryStore(copy, create: false).entries() == written)
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
        try HistoryStore(copy, create: true).record(HistoryStoreTests.entries(commit: 301, value: 301))
        #expect(try HistoryStore(copy, create: false).entries().count == 903)
    }
}
