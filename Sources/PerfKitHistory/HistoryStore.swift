import Foundation
import PerfKit

/// Where a branch's history is kept: an SQLite file (the default, no server) or a PostgreSQL database (one store for
/// every CI runner).
///
/// One schema and one set of statements serve both.
///
/// Recording is one transaction: each recorded series' row of that commit and machine is replaced,
/// so a record killed half-way leaves the old entries or the new ones, never a mixture; the shards
/// of one commit add up, and recording again replaces, never duplicates.
public final class HistoryStore {
    /// The schema version this code writes and reads.
    public static var currentSchemaVersion: Int { HistorySchema.migrations.count }

    /// The default store: an SQLite file under `.perfkit/`.
    public static let defaultLocation = ".perfkit/history.sqlite"

    private let connection: any SQLConnection

    /// The store as named (a URL's password is not shown).
    public var location: String { connection.location }

    /// Opens a store.
    /// - Parameters:
    ///   - location: An SQLite file, or a `postgres://` URL.
    ///   - create: Whether to create a missing store and bring an older one's schema forward (when
    ///     recording); reading never changes a store.
    /// - Throws: ``HistoryStoreError``: cannot open, not a store, or a schema newer than this code.
    public convenience init(_ location: String, create: Bool) throws(HistoryStoreError) {
        try self.init(StoreLocation(location), create: create)
    }

    /// Opens a store already parsed (``StoreLocation``), as ``init(_:create:)`` does.
    public convenience init(_ location: StoreLocation, create: Bool) throws(HistoryStoreError) {
        // A store this call creates and cannot finish (a full disk) is removed, never left as an empty file.
        var created: String?
        if case .sqlite(let path) = location, create, !FileManager.default.fileExists(atPath: path) { created = path }
        do throws(HistoryStoreError) {
            try self.init(opening: location, create: create)
        } catch {
            if let created { FileManager.default.removeLitter(atPath: created) }
            throw error
        }
    }

    private init(opening location: StoreLocation, create: Bool) throws(HistoryStoreError) {
        connection = try Self.connect(location, create: create)
        let version = try schemaVersion()
        guard version >= 0 else {
            throw HistoryStoreError(
                connection.location,
                "history schema version \(version) is not one perfkit writes (the store is damaged)")
        }
        if version > Self.currentSchemaVersion {
            throw HistoryStoreError(
                connection.location,
                "history schema version \(version) is newer than this perfkit reads (\(Self.currentSchemaVersion)); "
                    + "upgrade perfkit"
            )
        }
        if version < Self.currentSchemaVersion {
            guard create else {
                if version == 0 {
                    throw HistoryStoreError(
                        connection.location, "no history here yet (perfkit history record creates it)")
                }
                throw HistoryStoreError(
                    connection.location,
                    "history schema version \(version) is older; perfkit history record brings it forward")
            }
            try migrate()
        }
    }

    /// A connection to `location`: libpq for PostgreSQL, the SQLite library for a file.
    private static func connect(_ location: StoreLocation, create: Bool) throws(HistoryStoreError) -> any SQLConnection
    {
        switch location {
        case .postgres(let text, let display):
            try PostgresConnection(connection: text, display: display, create: create)
        case .sqlite(let path): try SQLiteConnection(path: path, create: create)
        }
    }

    /// The stored schema version (0 for a store without PerfKit's tables).
    private func schemaVersion() throws(HistoryStoreError) -> Int {
        guard try !connection.execute(connection.dialect.schemaTableExists).isEmpty else { return 0 }
        let rows = try connection.execute("SELECT max(version) FROM perfkit_schema")
        return Int(rows.first?.first?.integer ?? 0)
    }

    /// Applies the migrations above the stored version, forward only, in one exclusive transaction.
    ///
    /// With two first recorders at once, the second finds the work done.
    private func migrate(upTo target: Int = HistoryStore.currentSchemaVersion) throws(HistoryStoreError) {
        try transaction { () throws(HistoryStoreError) in
            let version = try schemaVersion()
            guard version < target else { return }
            for step in HistorySchema.migrations[version..<target] {
                for statement in step { try connection.execute(statement) }
            }
            try connection.execute("DELETE FROM perfkit_schema")
            try connection.execute("INSERT INTO perfkit_schema (version) VALUES ($1)", [.integer(Int64(target))])
        }
    }

    /// Creates a store at an older schema `version` and writes one row of it, as an older perfkit
    /// would have (tests of the migration).
    package static func createOlderForTesting(
        _ location: String, version: Int, row: HistoryEntry
    ) throws(HistoryStoreError) {
        let connection = try connect(StoreLocation(location), create: true)
        for step in HistorySchema.migrations[0..<version] {
            for statement in step { try connection.execute(statement) }
        }
        try connection.execute("INSERT INTO perfkit_schema (version) VALUES ($1)", [.integer(Int64(version))])
        let count = HistorySchema.versionOneColumns
        try connection.execute(
            HistorySchema.insert(columns: Array(HistorySchema.columnNames.prefix(count))),
            Array(HistorySchema.row(row).prefix(count)))
    }

    /// Runs `body` in an exclusive write transaction, rolled back when it throws.
    private func transaction(_ body: () throws(HistoryStoreError) -> Void) throws(HistoryStoreError) {
        for statement in connection.dialect.beginExclusive { try connection.execute(statement) }
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            // Already failing: the first error is the one thrown; a rollback that fails too adds nothing.
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Writes `version` as the stored schema version, as a newer perfkit would (tests of the refusal).
    package func setSchemaVersionForTesting(_ version: Int) throws(HistoryStoreError) {
        try connection.execute("UPDATE perfkit_schema SET version = $1", [.integer(Int64(version))])
    }

    /// Records entries, each replacing only the entry of its own machine, commit and series.
    ///
    /// Records entries. Each replaces only the entry of its own (machine, commit, series), so the
    /// shards or suites of one commit recorded one after another add up, and recording a run again
    /// replaces its series, never duplicates them.
    /// - Parameter entries: One run's entries (one machine, one commit).
    /// - Throws: ``HistoryStoreError``; the store is then as it was.
    public func record(_ entries: [HistoryEntry]) throws(HistoryStoreError) {
        try transaction { () throws(HistoryStoreError) in
            try connection.executeMany(HistorySchema.deleteSeries, entries.map(HistorySchema.key))
            try connection.executeMany(HistorySchema.insert(), entries.map(HistorySchema.row))
        }
    }

    /// Every entry, in history order: by machine, series, then position on the branch.
    /// - Parameter machine: Only this machine's entries, when given.
    /// - Returns: The entries.
    /// - Throws: ``HistoryStoreError`` for a row this code cannot read.
    public func entries(machine: String? = nil) throws(HistoryStoreError) -> [HistoryEntry] {
        let rows =
            if let machine {
                try connection.execute(
                    HistorySchema.select + " WHERE machine = $1" + HistorySchema.order, [.text(machine)])
            } else {
                try connection.execute(HistorySchema.select + HistorySchema.order)
            }
        var entries: [HistoryEntry] = []
        for row in rows {
            guard let entry = HistorySchema.entry(row) else {
                throw HistoryStoreError(
                    connection.location, "a history row cannot be read: \(row.map { $0.text ?? "NULL" })")
            }
            entries.append(entry)
        }
        return entries
    }
}
