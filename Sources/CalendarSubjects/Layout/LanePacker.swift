/// Packs overlapping segments of one day into lanes.
///
/// Order is deterministic: start ascending, then longer first, then segment id. Clusters are
/// sets of transitively overlapping segments; first-fit lanes give each cluster exactly its
/// maximum concurrency, reusing a lane once its event has ended. Optionally a segment expands
/// to the right into lanes that hold nothing overlapping it.
package enum LanePacker {
    /// Where a segment goes.
    package struct Placement: Sendable, Hashable {
        /// The first lane, from 0.
        package var lane: Int
        /// Lanes covered (1 unless expanded).
        package var span: Int
        /// Lanes of the segment's cluster.
        package var laneCount: Int
    }

    /// Segments that did not fit under a lane limit, shown as one "+N" chip.
    package struct OverflowGroup: Sendable, Hashable {
        /// The hidden segments, transitively overlapping.
        package var segments: [Segment]
        /// Start, in minutes since the day's start.
        package var startMinute: Double
        /// Exclusive end, in minutes since the day's start.
        package var endMinute: Double
        /// The lane the chip occupies (the last lane allowed).
        package var lane: Int
        /// Lanes of the cluster after limiting.
        package var laneCount: Int
        /// How many segments the chip stands for: the N of "+N".
        package var count: Int { segments.count }
    }

    /// Packs segments; the result is in the deterministic order, paired with placements.
    /// - Parameters:
    ///   - segments: Segments of one day (any order).
    ///   - expand: Whether segments expand to the right into free lanes.
    /// - Returns: Segments sorted deterministically and their placements.
    /// - Complexity: O(n log n + n·k) where k is the largest cluster's lane count (expansion adds O(k²) per cluster).
    package static func pack(_ segments: [Segment], expand: Bool = true) -> [(Segment, Placement)] {
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
                            if sorted[j].startMinute < sorted[i].endMinute
                                && sorted[i].startMinute < sorted[j].endMinute
                            {
                                break lanes
                            }
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

    /// Limits packed segments to `maxLanes` lanes.
    ///
    /// In a cluster that needs more, the last lane is kept for "+N" chips: segments in lanes from `maxLanes − 1` on are
    /// hidden and grouped into chips of transitively overlapping segments; visible segments never expand into that
    /// lane.
    /// - Parameters:
    ///   - packed: The result of ``pack(_:expand:)`` for one day.
    ///   - maxLanes: The most lanes a cluster may use, at least 2.
    /// - Returns: The visible segments and the overflow chips.
    /// - Complexity: O(n log n).
    package static func limit(_ packed: [(Segment, Placement)], maxLanes: Int) -> (
        visible: [(Segment, Placement)], overflow: [OverflowGroup]
    ) {
        precondition(maxLanes >= 2, "a lane limit keeps one lane for +N chips, so it must be at least 2")
        var visible: [(Segment, Placement)] = []
        var hiddenByCluster: [Int: [Segment]] = [:]
        // Clusters are consecutive in packing order: a new one starts where nothing earlier reaches.
        var cluster = -1
        var reach = -Double.infinity
        for (segment, placement) in packed {
            if segment.startMinute >= reach { cluster += 1 }
            reach = max(reach, segment.endMinute)
            guard placement.laneCount > maxLanes else {
                visible.append((segment, placement))
                continue
            }
            if placement.lane >= maxLanes - 1 {
                hiddenByCluster[cluster, default: []].append(segment)
            } else {
                var limited = placement
                limited.laneCount = maxLanes
                limited.span = min(placement.span, maxLanes - 1 - placement.lane)
                visible.append((segment, limited))
            }
        }
        var groups: [OverflowGroup] = []
        for cluster in hiddenByCluster.keys.sorted() {
            var clusterGroups: [OverflowGroup] = []
            for segment in hiddenByCluster[cluster]!.sorted(by: { ($0.startMinute, $0.id) < ($1.startMinute, $1.id) }) {
                if let last = clusterGroups.last, segment.startMinute < last.endMinute {
                    clusterGroups[clusterGroups.count - 1].segments.append(segment)
                    clusterGroups[clusterGroups.count - 1].endMinute = max(last.endMinute, segment.endMinute)
                } else {
                    clusterGroups.append(
                        OverflowGroup(
                            segments: [segment], startMinute: segment.startMinute, endMinute: segment.endMinute,
                            lane: maxLanes - 1, laneCount: maxLanes))
                }
            }
            groups += clusterGroups
        }
        return (visible, groups)
    }
}
