/// Memory that lives as long as a document: blocks handed out by any thread, never freed one by
/// one, all freed with the document.
///
/// Models read from a document hold it, so a model's cache can live in memory the document owns:
/// taking a block is one atomic addition, where `malloc` and `free` cost about eighty instructions
/// a model when thousands are made and freed together, much of it `malloc` sorting the freed
/// blocks of one read while the next allocates (callgrind, the enum row). The blocks come from
/// chunks that double from 4 KiB to 1 MiB, so a document that makes a few models takes a little
/// memory.
///
/// A block is not given back when its owner goes, so a program that makes models over one
/// document again and again would grow the document without end; the arena therefore stops at a
/// budget set when it is made (a multiple of the document's tape), and ``allocate(words:)``
/// answers nil from then on: the caller takes memory from the heap instead.
///
/// PERF: making and freeing the models of a read; see jsonmodel-bench --section converters (the
/// enum row) and --section documents (citm_catalog.json).
package struct DocumentArena: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the control words and chunk headers are only touched atomically, and
    // each block goes to one caller.
    /// The control words: the current chunk's address (0 before the first), and the budget left
    /// in bytes, as a signed value. Nil for a document without an arena.
    private let control: UnsafeMutablePointer<AtomicWord>?

    /// A chunk starts with three words: the bytes taken from it (counted past its capacity by
    /// callers that found it full), its capacity in bytes, and the previous chunk's address.
    private static var headerWords: Int { 3 }
    private static var smallestChunk: Int { 4 << 10 }
    private static var largestChunk: Int { 1 << 20 }
    /// The largest block taken from a chunk; larger ones come from the heap.
    package static var largestBlock: Int { 16 << 10 }

    /// An arena that hands out at most `budget` bytes of chunks; none at all for 0.
    package init(budget: Int) {
        guard budget > 0 else {
            control = nil
            return
        }
        let control = allocatePlain(AtomicWord.self, capacity: 2)
        control.initialize(to: AtomicWord(0))
        (control + 1).initialize(to: AtomicWord(UInt(budget)))
        self.control = control
    }

    deinit {
        guard let control else { return }
        var chunk = control.load(ordering: .acquiring)
        while let header = UnsafeMutablePointer<AtomicWord>(bitPattern: chunk) {
            chunk = (header + 2).load(ordering: .relaxed)
            freePlain(header)
        }
        freePlain(control)
    }

    /// A block of `words` uninitialized words, 8-byte aligned, that lives as long as the arena;
    /// nil when the arena has no room left, or the block is larger than ``largestBlock``.
    @inline(__always)
    package func allocate(words: Int) -> UnsafeMutablePointer<AtomicWord>? {
        guard let control else { return nil }
        let bytes = words * MemoryLayout<AtomicWord>.stride
        guard bytes <= Self.largestBlock else { return nil }
        while true {
            let chunk = control.load(ordering: .acquiring)
            if let header = UnsafeMutablePointer<AtomicWord>(bitPattern: chunk) {
                // Each caller gets its own range of the chunk; the memory needs no ordering.
                let start = Int(header.wrappingAdd(UInt(bytes), ordering: .relaxed))
                if start + bytes <= Int((header + 1).load(ordering: .relaxed)) {
                    return UnsafeMutableRawPointer(header + Self.headerWords + start / MemoryLayout<AtomicWord>.stride)
                        .assumingMemoryBound(to: AtomicWord.self)
                }
            }
            switch grow(after: chunk, taking: bytes, control: control) {
            case .spent: return nil
            case .raced: continue
            case .added(let block): return block
            }
        }
    }

    private enum Growth {
        /// The budget is spent.
        case spent
        /// Another thread added a chunk first: take from that one.
        case raced
        /// A new chunk, whose first block this is.
        case added(UnsafeMutablePointer<AtomicWord>)
    }

    /// Adds a chunk after `chunk`, its first `bytes` taken, unless another thread did.
    private func grow(after chunk: UInt, taking bytes: Int, control: UnsafeMutablePointer<AtomicWord>) -> Growth {
        let previous = UnsafeMutablePointer<AtomicWord>(bitPattern: chunk).map { Int(($0 + 1).load(ordering: .relaxed)) } ?? 0
        // At least the block's size: the first chunk is 4 KiB, and a block may be up to 16 KiB.
        let capacity = max(min(max(previous * 2, Self.smallestChunk), Self.largestChunk), bytes)
        // Every chunk added pays for itself out of the budget, and gives its share back when it
        // loses a race. A spent budget is seen with a load: the models made after it do not
        // write to the word.
        let budget = control + 1
        guard Int(bitPattern: budget.load(ordering: .relaxed)) >= capacity else { return .spent }
        guard Int(bitPattern: budget.wrappingAdd(UInt(bitPattern: -capacity), ordering: .relaxed)) >= capacity else {
            budget.wrappingAdd(UInt(capacity), ordering: .relaxed)
            return .spent
        }
        let header = allocatePlain(AtomicWord.self, capacity: Self.headerWords + capacity / MemoryLayout<AtomicWord>.stride)
        header.initialize(to: AtomicWord(UInt(bytes)))
        (header + 1).initialize(to: AtomicWord(UInt(capacity)))
        (header + 2).initialize(to: AtomicWord(chunk))
        guard control.compareExchange(expected: chunk, desired: UInt(bitPattern: header), ordering: .acquiringAndReleasing).exchanged
        else {
            freePlain(header)
            budget.wrappingAdd(UInt(capacity), ordering: .relaxed)
            return .raced
        }
        return .added(header + Self.headerWords)
    }
}
