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

    /// How long a connection may take before it is given up (seconds), unless the connection string sets its own
    /// `connect_timeout`.
    ///
    /// A server that accepts and never answers would otherwise hang a CI job.
    static let defaultConnectTimeout = 10

    /// Connects.
    /// - Parameters:
    ///   - text: libpq's connection string: a `postgres://` URL (any case) or `key=value`
    ///     pairs. A schema named by its `search_path` (`?options=-csearch_path%3Dproject`) keeps one
    ///     project's history apart from another's in one database.
    ///   - display: The connection as shown in messages (without its password).
    ///   - create: Whether to create that schema when it does not exist (recording).
    /// - Throws: ``HistoryStoreError`` when the server cannot be reached or refuses, or the schema is not a store.
    init(connection text: String, display: String, create: Bool) throws(HistoryStoreError) {
        location = display
        // Parsed already (``StoreLocation``); read again here for its password and timeout.
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &parseError) else {
            PQfreemem(parseError)
            throw HistoryStoreError(display, "libpq cannot parse the connection string")
        }
        var secrets: [String] = []
        var hasTimeout = false
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if let value = option.pointee.val {
                if name == "password", case let secret = String(cString: value), !secret.isEmpty {
                    secrets.append(secret)
                }
                if name == "connect_timeout" { hasTimeout = true }
            }
            option += 1
        }
        PQconninfoFree(options)
        // Later keywords win over the expanded connection string's: the default timeout goes first.
        let keywords = hasTimeout ? ["dbname"] : ["connect_timeout", "dbname"]
        let values = hasTimeout ? [text] : [String(Self.defaultConnectTimeout), text]
        let handle = Self.withCStrings(keywords) { k in
            Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let handle else { throw HistoryStoreError(location, "cannot allocate a connection") }
        guard PQstatus(handle) == CONNECTION_OK else {
            var message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            for secret in secrets { message = message.replacingOccurrences(of: secret, with: "***") }
            throw HistoryStoreError(location, message.isEmpty ? "cannot connect" : message, unreachable: true)
        }
        connection = handle
        try execute("SET client_min_messages = warning")
        // Older servers print 15 digits unless asked for the shortest exact form.
        try execute("SET extra_float_digits = 3")
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
                // Already failing: the first error is the one thrown; a rollback that fails too adds nothing.
                _ = try? execute("ROLLBACK")
                throw error
            }
        }
    }

    deinit { PQfinish(connection) }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings, valid during the call.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
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
