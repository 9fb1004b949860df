/// Packs overlapping segments of one day into lanes.
///
/// Order is deterministic: start ascending, then longer first, then segment id. Clusters are
/// sets of transitively overlapping segments; first-fit lanes give each cluster exactly its
/// maximum concurrency, reusing a lane once its event has ended. Optionally a segment expands
/// to the right into lanes that hold nothing overlapping it.
public enum LanePacker {
    /// Where a segment goes.
    public struct Placement: Sendable, Hashable {
        /// The first lane, from 0.
        public var lane: Int
        /// Lanes covered (1 unless expanded).
        public var span: Int
        /// Lanes of the segment's cluster.
        public var laneCount: Int
    }

    /// Packs segments; the result is in the deterministic order, paired with placements.
    /// - Parameters:
    ///   - segments: Segments of one day (any order).
    ///   - expand: Whether segments expand to the right into free lanes.
    /// - Returns: Segments sorted deterministically and their placements.
    /// - Complexity: O(n log n + n·k) where k is the largest cluster's lane count (expansion adds O(k²) per cluster).
    public static func pack(_ segments: [Segment], expand: Bool = true) -> [(Segment, Placement)] {
        let sorted = segments.sorted { a, b in
            if a.startMinute != b.startMinute { return a.startMinute < b.startMinute }
            let la = a.endMinute - a.startMinute, lb = b.endMinute - b.startMinute
            if la != lb { return la > lb }
            return a.id < b.id
        }
        var placements = [Placement](repeating: Placement(lane: 0, span: 1, laneCount: 1), count: sorted.count)
        var clusterStart = 0
        var clusterEnd = -Double.infinity
        var laneEnds: [Double] = []
        func close(_ upTo: Int) {
            guard upTo > clusterStart else { return }
            let count = laneEnds.count
            for i in clusterStart..<upTo { placements[i].laneCount = count }
            if expand && count > 1 {
                for i in clusterStart..<upTo {
                    var span = 1
                    lanes: while placements[i].lane + span < count {
                        let lane = placements[i].lane + span
                        for j in clusterStart..<upTo where placements[j].lane == lane {
                            if sorted[j].startMinute < sorted[i].endMinute && sorted[i].startMinute < sorted[j].endMinute { break lanes }
                        }
                        span += 1
                    }
                    placements[i].span = span
                }
            }
        }
        for (i, segment) in sorted.enumerated() {
            if segment.startMinute >= clusterEnd {
                close(i)
                clusterStart = i
                laneEnds.removeAll(keepingCapacity: true)
            }
            if let free = laneEnds.firstIndex(where: { $0 <= segment.startMinute }) {
                laneEnds[free] = segment.endMinute
                placements[i].lane = free
            } else {
                placements[i].lane = laneEnds.count
                laneEnds.append(segment.endMinute)
            }
            clusterEnd = max(clusterEnd, segment.endMinute)
        }
        close(sorted.count)
        return Array(zip(sorted, placements))
    }
}
