import CSQLite
import Foundation
import PerfKit

/// A connection to an SQLite file: the embedded store, no server.
///
/// Written in SQLite's rollback-journal mode with a 60-second busy timeout, so concurrent
/// recorders (separate processes) wait for each other's write transactions instead of failing, and
/// a transaction killed half-way leaves nothing (SQLite rolls it back on the next open). Readers
/// open the file read-only and create no file beside it, so a store in a folder the reader cannot
/// write can be shown, and another user's `history show` leaves nothing that locks the owner out
/// (WAL mode, used before, needed `-wal` and `-shm` files for every reader). A recorder first
/// checks the file (`PRAGMA quick_check`): a damaged store is refused, never written to.
final class SQLiteConnection: SQLConnection {
    let dialect = SQLDialect.sqlite
    let location: String
    private let database: OpaquePointer

    /// Opens the file.
    /// - Parameters:
    ///   - path: The file.
    ///   - create: Whether a missing file is created and the file is opened for writing (recording),
    ///     or it must exist and is opened read-only (reading).
    init(path: String, create: Bool) throws(HistoryStoreError) {
        location = path
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw HistoryStoreError(path, "no history store here (perfkit history record creates it)")
        }
        if create {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var handle: OpaquePointer?
        let flags = (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw HistoryStoreError(path, message)
        }
        database = handle
        sqlite3_busy_timeout(database, 60_000)
        do throws(HistoryStoreError) {
            // Reading the schema first turns "not a database" into an error here, before any pragma.
            try execute("SELECT count(*) FROM sqlite_master")
            if create {
                let check = try execute("PRAGMA quick_check").compactMap { $0.first?.text }
                guard check == ["ok"] else {
                    throw HistoryStoreError(
                        path,
                        "the store is damaged (SQLite's quick_check: \(check.prefix(2).joined(separator: "; "))); "
                            + "nothing was recorded: restore it from a copy"
                    )
                }
                // A store written in WAL mode by an older perfkit goes back to the rollback journal.
                if try execute("PRAGMA journal_mode").first?.first?.text?.lowercased() == "wal" {
                    try execute("PRAGMA journal_mode = DELETE")
                }
                try execute("PRAGMA synchronous = FULL")
            }
        } catch {
            sqlite3_close(database)
            if !create, error.problem.contains("unable to open") || error.problem.contains("readonly") {
                throw HistoryStoreError(
                    path,
                    "\(error.problem) (a store in WAL mode from an older perfkit needs its folder writable to be read; "
                        + "perfkit history record converts it)"
                )
            }
            throw error
        }
    }

    deinit { sqlite3_close(database) }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryStoreError) -> [[SQLValue]] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        try bind(parameters, to: statement)
        return try rows(of: statement)
    }

    func executeMany(_ sql: String, _ rows: [[SQLValue]]) throws(HistoryStoreError) {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for row in rows {
            try bind(row, to: statement)
            _ = try self.rows(of: statement)
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
    }

    private func prepare(_ sql: String) throws(HistoryStoreError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure()
        }
        return statement
    }

    private func bind(_ parameters: [SQLValue], to statement: OpaquePointer) throws(HistoryStoreError) {
        // SQLITE_TRANSIENT: SQLite copies the text before the Swift string goes away.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .text(let s): status = sqlite3_bind_text(statement, index, s, -1, transient)
            case .integer(let i): status = sqlite3_bind_int64(statement, index, i)
            case .real(let d): status = sqlite3_bind_double(statement, index, d)
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw failure() }
        }
    }

    private func rows(of statement: OpaquePointer) throws(HistoryStoreError) -> [[SQLValue]] {
        var rows: [[SQLValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure() }
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                    case SQLITE_NULL: .null
                    default: sqlite3_column_text(statement, column).map { .text(String(cString: $0)) } ?? .null
                    }
                })
        }
    }

    private func failure() -> HistoryStoreError {
        HistoryStoreError(location, String(cString: sqlite3_errmsg(database)))
    }
}
