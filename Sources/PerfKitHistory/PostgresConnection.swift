import CLibpq
import Foundation

/// A connection to a PostgreSQL database: the shared store every CI runner writes to.
///
/// Parameters are sent apart from the statement text (`PQexecParams`), values come back as text
/// and are parsed by column (a double's text is its shortest exact form, so it reads back equal).
final class PostgresConnection: SQLConnection {
    let dialect = SQLDialect.postgres
    let location: String
    private let connection: OpaquePointer

    /// Connects.
    /// - Parameters:
    ///   - url: A `postgres://` or `postgresql://` URL (libpq's connection URI). A schema named by
    ///     its `search_path` (`?options=-csearch_path%3Dproject`) keeps one project's history apart
    ///     from another's in one database.
    ///   - create: Whether to create that schema when it does not exist (recording).
    init(url: String, create: Bool) throws(HistoryStoreError) {
        location = Self.redacted(url)
        guard let handle = PQconnectdb(url) else { throw HistoryStoreError(location, "cannot allocate a connection") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw HistoryStoreError(location, message.isEmpty ? "cannot connect" : message)
        }
        connection = handle
        try execute("SET client_min_messages = warning")
        if create, try execute("SELECT current_schema()").first?.first == .null,
            let schema = try execute("SHOW search_path").first?.first?.text?.split(separator: ",").first
        {
            let name = schema.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\""))
            // Under the history's advisory lock: two first recorders creating one schema at once
            // would otherwise collide in PostgreSQL's catalog ("duplicate key … pg_namespace").
            try execute("BEGIN")
            do {
                try execute("SELECT pg_advisory_xact_lock(\(SQLDialect.advisoryLock))")
                try execute("CREATE SCHEMA IF NOT EXISTS \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
                try execute("COMMIT")
            } catch {
                _ = try? execute("ROLLBACK")
                throw error
            }
        }
    }

    deinit { PQfinish(connection) }

    /// Whether `store` names a PostgreSQL database rather than an SQLite file.
    static func isURL(_ store: String) -> Bool { store.hasPrefix("postgres://") || store.hasPrefix("postgresql://") }

    /// The URL without its password, for messages.
    static func redacted(_ url: String) -> String {
        guard let at = url.firstIndex(of: "@"), let scheme = url.range(of: "://"), scheme.upperBound < at else {
            return url
        }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryStoreError) -> [[SQLValue]] {
        let texts = parameters.map(\.text)
        let result = withParameters(texts) { values in
            PQexecParams(connection, sql, Int32(texts.count), nil, values, nil, nil, 0)
        }
        guard let result else { throw HistoryStoreError(location, String(cString: PQerrorMessage(connection))) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw HistoryStoreError(location, String(cString: PQresultErrorMessage(result)))
        }
        return (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? .null : .text(String(cString: PQgetvalue(result, row, column)))
            }
        }
    }

    func executeMany(_ sql: String, _ rows: [[SQLValue]]) throws(HistoryStoreError) {
        for row in rows { _ = try execute(sql, row) }
    }

    /// Calls `body` with the parameters as C strings (NULL for SQL NULL), valid during the call.
    private func withParameters<R>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = texts.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
