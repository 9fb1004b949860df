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
    /// - Throws: ``HistoryStoreError`` when the file cannot be opened or is not a history store.
    init(path: String, create: Bool) throws(HistoryStoreError) {
        location = path
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw HistoryStoreError(path, "no history store here (perfkit history record creates it)")
        }
        if create {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            // A folder that cannot be made fails sqlite3_open_v2 just below, with the file named.
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        database = try Self.open(path, create: create)
    }

    /// Opens `path` and reads its schema; a recorder's open also checks and sets up the file.
    ///
    /// A recorder killed half-way leaves a hot journal: the file holds part of its transaction, and
    /// a read-only connection may not roll it back (SQLITE_READONLY_ROLLBACK). A reader who can
    /// write the store then rolls it back, as the next record would, and reads the store as it was.
    private static func open(_ path: String, create: Bool, rolledBack: Bool = false) throws(HistoryStoreError)
        -> OpaquePointer
    {
        var handle: OpaquePointer?
        let flags = (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw HistoryStoreError(path, message)
        }
        sqlite3_busy_timeout(handle, 60_000)
        // The first column of each row, as text.
        let run = { (sql: String) throws(HistoryStoreError) -> [String] in
            try execute(sql, [], on: handle, path).map { $0.first?.text ?? "" }
        }
        do throws(HistoryStoreError) {
            // Reading the schema first turns "not a database" into an error here, before any pragma.
            _ = try run("SELECT count(*) FROM sqlite_master")
            if create {
                let check = try run("PRAGMA quick_check")
                guard check == ["ok"] else {
                    throw HistoryStoreError(
                        path,
                        "the store is damaged (SQLite's quick_check: \(check.prefix(2).joined(separator: "; "))); "
                            + "nothing was recorded: restore it from a copy"
                    )
                }
                // A store written in WAL mode by an older perfkit goes back to the rollback journal.
                if try run("PRAGMA journal_mode").first?.lowercased() == "wal" {
                    _ = try run("PRAGMA journal_mode = DELETE")
                }
                _ = try run("PRAGMA synchronous = FULL")
            }
        } catch {
            let code = sqlite3_extended_errcode(handle)
            sqlite3_close(handle)
            // SQLITE_READONLY_ROLLBACK, (SQLITE_READONLY | (3 << 8)) in sqlite3.h: a hot journal.
            if !create, !rolledBack, code == SQLITE_READONLY | (3 << 8) {
                try rollBack(path, problem: error.problem)
                return try open(path, create: false, rolledBack: true)
            }
            if !create, error.problem.contains("unable to open") || error.problem.contains("readonly") {
                throw HistoryStoreError(
                    path,
                    "\(error.problem) (a store in WAL mode from an older perfkit needs its folder writable to be read; "
                        + "perfkit history record converts it)"
                )
            }
            throw error
        }
        return handle
    }

    /// Rolls back the transaction an interrupted record left in `path`'s journal, as the next record would.
    ///
    /// Refused in one line when this reader cannot write the store or its folder.
    private static func rollBack(_ path: String, problem: String) throws(HistoryStoreError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let refusal = HistoryStoreError(
            path,
            "\(problem): a record was interrupted before it finished, and only someone who can write the store "
                + "and its folder can roll it back (the next perfkit history record does)"
        )
        guard FileManager.default.isWritableFile(atPath: path), FileManager.default.isWritableFile(atPath: folder)
        else { throw refusal }
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK,
            let handle
        else { throw refusal }
        sqlite3_busy_timeout(handle, 60_000)
        // The first read takes a shared lock, finds the hot journal and rolls it back.
        _ = try execute("SELECT count(*) FROM sqlite_master", [], on: handle, path)
    }

    deinit { sqlite3_close(database) }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryStoreError) -> [[SQLValue]] {
        try Self.execute(sql, parameters, on: database, location)
    }

    func executeMany(_ sql: String, _ rows: [[SQLValue]]) throws(HistoryStoreError) {
        let statement = try Self.prepare(sql, on: database, location)
        defer { sqlite3_finalize(statement) }
        for row in rows {
            try Self.bind(row, to: statement, on: database, location)
            _ = try Self.rows(of: statement, on: database, location)
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
    }

    /// Runs one statement on `database` (the store at `location`, named in errors) and returns its rows.
    ///
    /// What the connection's ``execute(_:_:)`` does, callable before the connection exists (its open).
    private static func execute(_ sql: String, _ parameters: [SQLValue], on database: OpaquePointer, _ location: String)
        throws(HistoryStoreError) -> [[SQLValue]]
    {
        let statement = try prepare(sql, on: database, location)
        defer { sqlite3_finalize(statement) }
        try bind(parameters, to: statement, on: database, location)
        return try rows(of: statement, on: database, location)
    }

    private static func prepare(_ sql: String, on database: OpaquePointer, _ location: String)
        throws(HistoryStoreError) -> OpaquePointer
    {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(database, location)
        }
        return statement
    }

    private static func bind(
        _ parameters: [SQLValue], to statement: OpaquePointer, on database: OpaquePointer, _ location: String
    ) throws(HistoryStoreError) {
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
            guard status == SQLITE_OK else { throw failure(database, location) }
        }
    }

    private static func rows(of statement: OpaquePointer, on database: OpaquePointer, _ location: String)
        throws(HistoryStoreError) -> [[SQLValue]]
    {
        var rows: [[SQLValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(database, location) }
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

    /// The connection's last error.
    ///
    /// A store whose pages or indexes disagree (SQLite's corrupt code, or a uniqueness failure, which recording cannot
    /// cause: it deletes a series' rows before writing them) is named damaged, with SQLite's words after.
    private static func failure(_ database: OpaquePointer, _ location: String) -> HistoryStoreError {
        let message = String(cString: sqlite3_errmsg(database))
        switch sqlite3_errcode(database) & 0xFF {
        case SQLITE_CORRUPT, SQLITE_CONSTRAINT:
            return HistoryStoreError(
                location, "the store is damaged (SQLite: \(message)); restore it from a copy or record into a new store"
            )
        default: return HistoryStoreError(location, message)
        }
    }
}
