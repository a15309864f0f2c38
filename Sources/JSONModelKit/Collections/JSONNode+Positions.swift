import JSONModelKitCore

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
    /// The most elements whose positions are written on the stack and then copied into an array;
    /// those of larger arrays are written into the array's own memory, sparing the copy.
    static var copiedPositionsLimit: Int { 512 }

    /// The tape positions of an array's elements, in one pass over the tape; empty for
    /// other kinds.
    ///
    /// Unlike the shared table built for `node[index]`, this is not cached in the document:
    /// a lazy collection keeps it itself.
    ///
    /// - Complexity: O(*n*) in the element count (one tape read per element).
    func elementTapePositions() -> [UInt32] {
        var allObjects = false
        return elementTapePositions(allObjects: &allObjects)
    }

    /// The tape positions of an array's elements, noting whether every element is an object
    /// in the same pass: on a tape larger than the caches, a second pass would cost a cache miss
    /// per element again.
    ///
    /// PERF: making a lazy array; see jsonmodel-bench --section bulk, row (a).
    func elementTapePositions(allObjects: inout Bool) -> [UInt32] {
        let entry = entry
        guard entry.tag == .array else {
            allObjects = true
            return []
        }
        let count = entry.containerCount
        var wrote = (count: 0, objects: true, touched: UInt64(0))
        let positions: [UInt32]
        if count <= Self.copiedPositionsLimit {
            // Written into a temporary buffer and copied at their size: the array initializer that
            // leaves memory uninitialized (and the one that repeats a value) runs unspecialized and
            // finds the array's storage class at run time, about 660 instructions, more than the
            // copy of a small array costs (PERF: the many small arrays of citm_catalog.json,
            // jsonmodel-bench --section documents).
            positions = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { buffer in
                wrote = writePositions(into: buffer)
                return [UInt32](UnsafeBufferPointer(rebasing: buffer[..<wrote.count]))
            }
        } else {
            positions = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
                wrote = writePositions(into: buffer)
                initialized = wrote.count
            }
        }
        allObjects = wrote.objects
        keep(wrote.touched)
        return positions
    }

    /// The tape positions of an array's elements written into `buffer`, which holds at least
    /// `entry.containerCount` of them, for a caller that keeps them in memory of its own.
    ///
    /// - Returns: How many were written, and whether every element is an object.
    func writeElementTapePositions(into buffer: UnsafeMutableBufferPointer<UInt32>) -> (count: Int, allObjects: Bool) {
        let wrote = writePositions(into: buffer)
        keep(wrote.touched)
        return (wrote.count, wrote.objects)
    }

    /// Writes the positions of this array's elements into `buffer` and returns how many it
    /// wrote, whether all were objects, and what touching the tape ahead read. Captures nothing
    /// it changes: a captured variable would be checked for exclusive access at run time on
    /// every access.
    private func writePositions(into buffer: UnsafeMutableBufferPointer<UInt32>)
        -> (count: Int, objects: Bool, touched: UInt64)
    {
        let entry = entry
        guard entry.tag == .array else { return (0, true, 0) }
        let count = entry.containerCount
        let end = entry.containerEnd
        return document.tape.withUnsafeBufferPointer { tape in
            var objects = true
            var touched: UInt64 = 0
            var position = index + 1
            var written = 0
            let last = end - 1
            while position < end && written < count {
                buffer[written] = UInt32(truncatingIfNeeded: position)
                written += 1
                // Each position is read from the entry at the previous one, a chain of loads
                // the hardware cannot run ahead of; on a tape larger than the caches every
                // step waited for memory. Touching the tape 16 cache lines ahead, a load
                // independent of this one, has those lines on their way before the chain
                // reaches them (PERF: the bulk section's lazy-array rows).
                touched |= tape[min(position &+ 128, last)]
                let element = TapeEntry(bits: tape[position])
                if element.isContainer {
                    objects = objects && element.tag == .object
                    position = element.containerEnd
                } else {
                    objects = false
                    position += 1
                }
            }
            return (written, objects, touched)
        }
    }
}

/// Uses a value, so the loads that produced it are not removed as dead code (`@_optimize(none)`
/// keeps the optimizer from seeing that the body does nothing).
@inline(never) @_optimize(none)
private func keep(_ value: UInt64) {
    withExtendedLifetime(value) {}
}
