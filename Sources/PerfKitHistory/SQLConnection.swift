import PerfKit

/// A value bound to a statement or read from a row.
public enum SQLValue: Sendable, Equatable {
    /// Text.
    case text(String)
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// SQL NULL.
    case null

    /// The value as text (numbers in their shortest exact form).
    var text: String? {
        switch self {
        case .text(let s): s
        case .integer(let i): String(i)
        case .real(let d): "\(d)"
        case .null: nil
        }
    }

    /// The value as a double (a server's text parsed back exactly).
    var double: Double? {
        switch self {
        case .real(let d): d
        case .integer(let i): Double(i)
        case .text(let s): Double(s)
        case .null: nil
        }
    }

    /// The value as an integer.
    var integer: Int64? {
        switch self {
        case .integer(let i): i
        case .real(let d): Int64(exactly: d)
        case .text(let s): Int64(s)
        case .null: nil
        }
    }
}

/// What differs between the two stores' SQL: everything else is one schema and one set of statements.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// Starts a write transaction that excludes every other recorder until it ends.
    ///
    /// SQLite takes the database's write lock at once; PostgreSQL takes a transaction-scoped advisory lock. So two
    /// recorders of one commit cannot interleave their delete and insert.
    var beginExclusive: [String] {
        switch self {
        case .sqlite: ["BEGIN IMMEDIATE"]
        case .postgres: ["BEGIN", "SELECT pg_advisory_xact_lock(\(SQLDialect.advisoryLock))"]
        }
    }

    /// A query returning one row when `perfkit_schema` exists, none otherwise.
    var schemaTableExists: String {
        switch self {
        case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'perfkit_schema'"
        case .postgres:
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'perfkit_schema'"
        }
    }

    /// The advisory lock key of PerfKit's history (an arbitrary constant: "PKHIST" in ASCII).
    static let advisoryLock: Int64 = 0x504B_4849_5354
}

/// One open database connection.
///
/// Not shared between tasks: each command opens its own, and each concurrent recorder is its own process (the database
/// is what they share).
protocol SQLConnection: AnyObject {
    /// The SQL dialect.
    var dialect: SQLDialect { get }
    /// Where the store is, as the user named it (a file or a URL without its password), for messages.
    var location: String { get }
    /// Runs one statement with `$1`, `$2`, … bound to `parameters`.
    /// - Returns: The rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(HistoryStoreError) -> [[SQLValue]]
    /// Runs one statement once per parameter row (prepared once where the database allows).
    func executeMany(_ sql: String, _ rows: [[SQLValue]]) throws(HistoryStoreError)
}

extension SQLConnection {
    /// Runs a statement without parameters.
    @discardableResult
    func execute(_ sql: String) throws(HistoryStoreError) -> [[SQLValue]] { try execute(sql, []) }
}

/// A history store problem, one line naming the store (never its secret).
public struct HistoryStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store, as named (a URL without its password).
    public var location: String
    /// What went wrong.
    public var problem: String
    /// Whether the store could not be reached (a server refused or did not answer), as opposed to
    /// a bad location or a bad store.
    public var unreachable: Bool

    /// An error.
    public init(_ location: String, _ problem: String, unreachable: Bool = false) {
        self.location = location
        self.problem = problem
        self.unreachable = unreachable
    }

    /// `location: problem`, on one line.
    public var description: String {
        "\(location): "
            + problem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                separator: " ")
    }
}

extension HistoryStoreError: ExitStatusError {
    /// ``ExitStatus/storeUnreachable`` for an outage, else ``ExitStatus/badInput``.
    package var exitStatus: Int32 { unreachable ? ExitStatus.storeUnreachable : ExitStatus.badInput }
}
