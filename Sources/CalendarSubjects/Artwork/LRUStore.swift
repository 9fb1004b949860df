/// A dictionary that keeps its keys in least-recently-used order, as a doubly linked list threaded through the
/// dictionary's entries.
///
/// Lookup, touch, insert and evicting the oldest are O(1) hash operations, however full the store is.
struct LRUStore<Key: Hashable, Value> {
    private struct Node {
        var value: Value
        var older: Key?
        var newer: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var oldest: Key?
    private var newest: Key?

    /// Number of entries.
    var count: Int { nodes.count }

    /// The value for `key`, made the most recently used.
    /// - Complexity: O(1).
    mutating func touch(_ key: Key) -> Value? {
        guard let node = nodes[key] else { return nil }
        unlink(key, node)
        link(key, node.value)
        return node.value
    }

    /// Stores `value` as the most recently used; returns the value it replaced, if any.
    /// - Complexity: O(1).
    @discardableResult
    mutating func insert(_ value: Value, for key: Key) -> Value? {
        let old = nodes[key]
        if let old { unlink(key, old) }
        link(key, value)
        return old?.value
    }

    /// Removes and returns the least recently used entry.
    /// - Complexity: O(1).
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard let key = oldest, let node = nodes[key] else { return nil }
        unlink(key, node)
        return (key, node.value)
    }

    /// Removes every entry.
    mutating func removeAll() {
        nodes.removeAll()
        oldest = nil
        newest = nil
    }

    /// Keys from least to most recently used.
    /// - Complexity: O(n).
    var keysOldestFirst: [Key] {
        var keys: [Key] = []
        var cursor = oldest
        while let key = cursor {
            keys.append(key)
            cursor = nodes[key]?.newer
        }
        return keys
    }

    private mutating func unlink(_ key: Key, _ node: Node) {
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        nodes[key] = nil
    }

    private mutating func link(_ key: Key, _ value: Value) {
        nodes[key] = Node(value: value, older: newest, newer: nil)
        if let newest { nodes[newest]?.newer = key } else { oldest = key }
        newest = key
    }
}
