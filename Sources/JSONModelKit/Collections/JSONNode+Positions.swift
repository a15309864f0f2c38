// Internal access to array element positions, for the lazy collections.

extension JSONNode {
    /// The node at a tape position of the same document.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func node(atTapePosition position: UInt32) -> JSONNode {
        JSONNode(document: document, index: Int(position))
    }

    /// Whether the value at a tape position of this document is an object.
    @inline(__always)
    func isObject(atTapePosition position: UInt32) -> Bool {
        document.entry(Int(position)).tag == .object
    }
}

extension JSONNode {
    /// The tape positions of an array's elements, in one pass over the tape; empty for
    /// other kinds.
    ///
    /// Unlike the shared table built for `node[index]`, this is not cached in the document:
    /// a lazy collection keeps it itself.
    ///
    /// - Complexity: O(*n*) in the element count (one tape read per element).
    func elementTapePositions() -> [UInt32] {
        let entry = entry
        guard entry.tag == .array else { return [] }
        let count = entry.containerCount
        let end = entry.containerEnd
        return [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            var written = 0
            while position < end && written < count {
                buffer[written] = UInt32(truncatingIfNeeded: position)
                written += 1
                position = document.next(after: position)
            }
            initialized = written
        }
    }
}
