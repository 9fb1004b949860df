import Foundation
import PerfKit

/// A retained history of `days` days.
///
/// Daily loads of 2,000 emails, 100 calendar events, 1,000 notes and 10,000 podcast episodes, held in memory the way an
/// app retains its history, so they weigh on process memory.
package struct RetainedHistory: Sendable {
    /// A retained email of the history.
    package struct Email: Sendable { var id: Int; var subject: String; var sender: String; var preview: String }
    /// A retained note of the history.
    package struct Note: Sendable { var id: Int; var title: String; var body: String }
    /// A retained podcast episode of the history.
    package struct Episode: Sendable { var id: Int; var show: String; var title: String; var duration: Int }

    /// Days of history held.
    package let days: Int
    /// The calendar events of those days.
    package let events: [CalendarEvent]
    /// The emails of those days.
    package let emails: [Email]
    /// The notes of those days.
    package let notes: [Note]
    /// The episodes of those days.
    package let episodes: [Episode]

    /// Generates the history deterministically from `seed`.
    package init(days: Int, seed: UInt64) {
        self.days = days
        events = Workloads.historyEvents(days: days, seed: seed)
        var generator = SeededGenerator(seed: seed ^ 0xE3A1)
        func text(_ words: Int) -> String {
            let vocabulary = [
                "meeting", "update", "quarterly", "invoice", "weekend", "travel", "notes", "project", "design",
                "review", "family", "photos",
            ]
            return (0..<words).map { _ in vocabulary[generator.index(below: vocabulary.count)] }.joined(separator: " ")
        }
        var emails: [Email] = []
        var notes: [Note] = []
        var episodes: [Episode] = []
        emails.reserveCapacity(days * 2_000)
        notes.reserveCapacity(days * 1_000)
        episodes.reserveCapacity(days * 10_000)
        for day in 0..<days {
            for k in 0..<2_000 {
                emails.append(
                    Email(
                        id: day * 2_000 + k, subject: text(4),
                        sender: "sender\(generator.index(below: 500))@example.com", preview: text(12)))
            }
            for k in 0..<1_000 { notes.append(Note(id: day * 1_000 + k, title: text(3), body: text(20))) }
            for k in 0..<10_000 {
                episodes.append(
                    Episode(
                        id: day * 10_000 + k, show: "Show \(generator.index(below: 200))", title: text(5),
                        duration: 600 + generator.index(below: 3_600)))
            }
        }
        self.emails = emails
        self.notes = notes
        self.episodes = episodes
    }

    /// Items held (events, emails, notes, episodes).
    package var itemCount: Int { events.count + emails.count + notes.count + episodes.count }
}
