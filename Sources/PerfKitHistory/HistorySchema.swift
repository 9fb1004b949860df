import Foundation
import PerfKit

/// The history store's one schema, its forward-only migrations and the statements over it.
///
/// Column types are the ones SQLite and PostgreSQL both accept. Migration N (from 0) takes a store
/// from version N to N + 1; a released migration is never edited, a change is a new one.
enum HistorySchema {
    /// Migration steps, each a list of statements.
    static let migrations: [[String]] = [
        // Version 1: one row per (machine, commit, series).
        [
            "CREATE TABLE perfkit_schema (version INTEGER NOT NULL)",
            """
            CREATE TABLE perfkit_history (
                machine TEXT NOT NULL, commit_hash TEXT NOT NULL, parent_hash TEXT NOT NULL, position INTEGER NOT NULL,
                commit_date BIGINT NOT NULL, subject TEXT NOT NULL,
                test TEXT NOT NULL, measurement TEXT NOT NULL, arm TEXT NOT NULL, phase TEXT NOT NULL, metric TEXT \
            NOT NULL,
                unit TEXT NOT NULL, kind TEXT NOT NULL, measure TEXT NOT NULL,
                value DOUBLE PRECISION NOT NULL, lower_value DOUBLE PRECISION NOT NULL, upper_value DOUBLE PRECISION \
            NOT NULL,
                processes INTEGER NOT NULL, recorded DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (machine, commit_hash, test, measurement, arm, phase, metric)
            )
            """,
        ],
        // Version 2: a sized case's function and size, so a commit's growth can be fitted.
        [
            "ALTER TABLE perfkit_history ADD COLUMN case_function TEXT",
            "ALTER TABLE perfkit_history ADD COLUMN case_size DOUBLE PRECISION",
        ],
        // Version 3: what the point was measured with (toolchain, allocator, valgrind, counting setup), as JSON.
        ["ALTER TABLE perfkit_history ADD COLUMN environment TEXT"],
    ]

    /// The columns, in the order ``row(_:)`` writes and ``entry(_:)`` reads them.
    static let columnNames = [
        "machine", "commit_hash", "parent_hash", "position", "commit_date", "subject", "test", "measurement", "arm",
        "phase", "metric", "unit", "kind", "measure", "value", "lower_value", "upper_value", "processes", "recorded",
        "case_function", "case_size", "environment",
    ]
    /// How many of them version 1 had (the rest came with migration 2).
    static let versionOneColumns = 19
    static let columns = columnNames.joined(separator: ", ")

    /// An insert of `columns`, one numbered parameter each.
    static func insert(columns: [String] = columnNames) -> String {
        "INSERT INTO perfkit_history (\(columns.joined(separator: ", "))) VALUES ("
            + (1...columns.count).map { "$\($0)" }.joined(separator: ", ") + ")"
    }

    static let select = "SELECT \(columns) FROM perfkit_history"
    static let order = " ORDER BY machine, test, measurement, metric, arm, phase, position, commit_hash"

    /// Deletes one series' entry of one commit on one machine (the primary key, ``key(_:)``).
    static let deleteSeries =
        "DELETE FROM perfkit_history WHERE machine = $1 AND commit_hash = $2 AND test = $3 AND measurement = $4"
        + " AND arm = $5 AND phase = $6 AND metric = $7"

    /// An entry's primary key as ``deleteSeries``'s parameters.
    static func key(_ e: HistoryEntry) -> [SQLValue] {
        [
            .text(e.machine), .text(e.commit.hash), .text(e.series.test), .text(e.series.measurement),
            .text(e.series.arm), .text(e.series.phase.identifier), .text(e.series.metric),
        ]
    }

    /// An entry as the insert's parameters.
    static func row(_ e: HistoryEntry) -> [SQLValue] {
        [
            .text(e.machine), .text(e.commit.hash), .text(e.commit.parent), .integer(Int64(e.commit.position)),
            .integer(Int64(e.commit.date.timeIntervalSince1970.rounded())), .text(e.commit.subject),
            .text(e.series.test), .text(e.series.measurement), .text(e.series.arm), .text(e.series.phase.identifier),
            .text(e.series.metric),
            .text(e.unit), .text(e.kind.identifier), .text(e.measure.rawValue), .real(e.value), .real(e.lower),
            .real(e.upper),
            .integer(Int64(e.processes)), .real(e.recorded.timeIntervalSince1970),
            e.caseSize.map { .text($0.function) } ?? .null, e.caseSize.map { .real($0.size) } ?? .null,
            e.environment.flatMap(HistoryEnvironment.text).map { .text($0) } ?? .null,
        ]
    }

    /// A selected row as an entry, or nil when a field is unreadable.
    static func entry(_ r: [SQLValue]) -> HistoryEntry? {
        guard r.count == columnNames.count, let machine = r[0].text, let hash = r[1].text, let parent = r[2].text,
            let position = r[3].integer,
            let date = r[4].integer, let subject = r[5].text, let test = r[6].text, let measurement = r[7].text,
            let arm = r[8].text,
            let phase = r[9].text.flatMap(Phase.init(identifier:)), let metric = r[10].text, let unit = r[11].text,
            let kind = r[12].text.flatMap(MetricKind.init(identifier:)),
            let measure = r[13].text.flatMap(HistoryMeasure.init(rawValue:)),
            let value = r[14].double, let lower = r[15].double, let upper = r[16].double, let processes = r[17].integer,
            let recorded = r[18].double
        else { return nil }
        return HistoryEntry(
            machine: machine,
            commit: CommitInfo(
                hash: hash, parent: parent, position: Int(position),
                date: Date(timeIntervalSince1970: TimeInterval(date)), subject: subject),
            series: SeriesID(test: test, measurement: measurement, arm: arm, phase: phase, metric: metric), unit: unit,
            kind: kind, measure: measure,
            value: value, lower: lower, upper: upper, processes: Int(processes),
            recorded: Date(timeIntervalSince1970: recorded),
            caseSize: r[19].text.flatMap { function in r[20].double.map { CaseSize(function: function, size: $0) } },
            environment: r[21].text.flatMap(HistoryEnvironment.init(text:)))
    }
}
