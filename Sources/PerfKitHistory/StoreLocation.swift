import CLibpq
import Foundation

/// Where a history store is, parsed once from what the user gave (`--store`, `PERFKIT_HISTORY`).
///
/// An SQLite file or a PostgreSQL connection, in every spelling libpq accepts (`postgres://` and `postgresql://` in any
/// case, or a `key=value` connection string). Refused in one line: an empty location (an unset secret in CI), SQLite's
/// in-memory and temporary databases (nothing would be kept), and a device or folder. ``display`` never holds a secret.
public enum StoreLocation: Sendable, Equatable {
    /// An SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL connection: libpq's connection string (URL or `key=value`) and the form shown.
    case postgres(connection: String, display: String)

    /// Parses a location.
    /// - Parameter text: As given.
    /// - Throws: ``HistoryStoreError`` naming the problem (and never the secret).
    public init(_ text: String) throws(HistoryStoreError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw HistoryStoreError(
                "(empty)",
                "the history store location is empty (--store '' or an empty PERFKIT_HISTORY, such as an unset CI "
                    + "secret); nothing was recorded: name an SQLite file or a postgres:// URL"
            )
        }
        if Self.isPostgresURL(trimmed), let scheme = trimmed.range(of: "://") {
            // libpq ends the user information at the first '@': a second one means a password
            // holding '@', which libpq would read as part of the host (and quote in its message).
            let authority = trimmed[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
            if authority.filter({ $0 == "@" }).count > 1 {
                throw HistoryStoreError(
                    Self.redacted(trimmed),
                    "the URL has more than one '@' before its host; write an '@' inside a password as %40")
            }
        }
        if Self.isPostgresURL(trimmed) || Self.isKeywordConnection(trimmed) {
            self = .postgres(connection: trimmed, display: try Self.display(ofConnection: trimmed))
            return
        }
        if let scheme = trimmed.range(of: "://"), !trimmed[..<scheme.lowerBound].contains("/") {
            throw HistoryStoreError(
                Self.redacted(trimmed),
                "'\(trimmed[..<scheme.lowerBound])://' is not a store perfkit knows: use postgres:// (or "
                    + "postgresql://) for a server, or a file path for SQLite"
            )
        }
        if trimmed == ":memory:" || trimmed.hasPrefix("file:") {
            throw HistoryStoreError(
                trimmed,
                "an in-memory or URI SQLite database keeps nothing after perfkit exits; name a file (for example "
                    + ".perfkit/history.sqlite)"
            )
        }
        var info = stat()
        if stat(trimmed, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw HistoryStoreError(
                trimmed,
                info.st_mode & S_IFMT == S_IFDIR
                    ? "is a folder, not a history store"
                    : "is not a regular file (a device, FIFO or socket); a history store is an SQLite file")
        }
        self = .sqlite(path: trimmed)
    }

    /// The location as shown in messages (a URL's password, and a connection string's, replaced by `***`).
    public var display: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(_, let display): display
        }
    }

    /// A connection as shown.
    ///
    /// Rebuilt from what libpq parsed (`postgres://host:port/dbname`), so no user information (a password, or a token
    /// libpq reads as a user name), query parameter or stray part of the string can reach a message.
    /// - Throws: ``HistoryStoreError`` when libpq cannot parse it; the string is then not shown at all.
    static func display(ofConnection text: String) throws(HistoryStoreError) -> String {
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &parseError) else {
            PQfreemem(parseError)
            throw HistoryStoreError(
                isPostgresURL(text) ? String(text.prefix { $0 != ":" }) + "://…" : "(a key=value connection)",
                "libpq cannot parse the connection string (not shown: it may hold a password)")
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        // A part that looks like a setting (`=`) or names a password was mistyped into another
        // part (libpq read `…/db?password=x` without `?` as a database name): not shown either.
        func shown(_ key: String) -> String? {
            values[key].map { $0.contains("=") || $0.lowercased().contains("password") ? "…" : $0 }
        }
        // No user information at all: libpq reads a lone `TOKEN@host` as the user name, so a token given that way
        // would be printed as one.
        let port = shown("port").map { ":" + $0 } ?? ""
        return "postgres://" + (shown("host") ?? shown("hostaddr") ?? "") + port + "/" + (shown("dbname") ?? "")
    }

    /// `postgres://` or `postgresql://`, any case.
    static func isPostgresURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// A libpq `key=value` connection string (`host=db dbname=perf password=…`).
    ///
    /// It starts with a keyword and an `=`, and has no `/` before that `=`, so a file path is never read as one.
    static func isKeywordConnection(_ text: String) -> Bool {
        guard let equals = text.firstIndex(of: "=") else { return false }
        let key = text[..<equals].trimmingCharacters(in: .whitespaces)
        return !key.isEmpty && key.allSatisfy { $0.isLetter || $0 == "_" } && !text[..<equals].contains("/")
    }

    /// The connection without any secret.
    ///
    /// A URL's user information (everything before the last `@`) becomes `***`, user name and all (`***@host`), and the
    /// value of every `password` parameter, in a URL's query or a
    /// `key=value` string, becomes `***`.
    public static func redacted(_ text: String) -> String {
        if isKeywordConnection(text), !isPostgresURL(text) { return redactedKeywords(text) }
        guard let scheme = text.range(of: "://") else { return text }
        let head = String(text[..<scheme.upperBound])
        var rest = String(text[scheme.upperBound...])
        // The user information ends at the last '@': a password may hold '@', '/', '?' and ':'.
        if let at = rest.lastIndex(of: "@") {
            // The whole user information: a lone `TOKEN@` is read by libpq as a user name.
            rest = "***@" + rest[rest.index(after: at)...]
        }
        guard let question = rest.firstIndex(of: "?") else { return head + rest }
        let query = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map {
            parameter -> String in
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts.first.map(String.init) ?? ""
            let secret = key.lowercased().contains("password")
            return secret && parts.count == 2 ? key + "=***" : String(parameter)
        }
        return head + rest[..<question] + "?" + query.joined(separator: "&")
    }

    /// A `key=value` connection string with the value of `password` (quoted or not) replaced.
    static func redactedKeywords(_ text: String) -> String {
        guard
            // A constant pattern: it compiles (were it nil, the whole string would be masked).
            let pattern = try? NSRegularExpression(
                pattern: #"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S*)"#, options: .caseInsensitive)
        else { return "***" }
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1***")
    }
}
