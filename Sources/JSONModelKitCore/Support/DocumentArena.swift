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
/// The arena of a large document, on Linux, takes its chunks past the first mebibyte as huge
/// pages of their own (``DocumentPages/mapHugePage()``), as its tape does: reading every property of
/// the benchmark's 20 MB of records writes about 26 MB of caches into memory nobody touched, and
/// with 4 KiB pages each read took about 5,900 page faults, nearly one for every page; with huge pages
/// it takes one per 2 MiB, and the read took about 0.9 of the time. A chunk from `malloc` would
/// not do: glibc gives the free top of its heap back to the system between reads, so the next
/// read faults the same memory in again, and advice on heap memory would outlive the chunk. The
/// cost is the last huge page, which is backed whole while partly used: at most 2 MiB more than
/// the caches take, on a document of 16 MiB or more.
///
/// PERF: making and freeing the models of a read; see jsonmodel-bench --section converters (the
/// enum row) and --section documents (citm_catalog.json); the huge pages: Tools/simdjson-compare,
/// the bulk read row.
package struct DocumentArena: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the control words and chunk headers are only touched atomically, and
    // each block goes to one caller.
    /// The control words: the current chunk's address (0 before the first), and the budget left
    /// in bytes, as a signed value. Nil for a document without an arena.
    private let control: UnsafeMutablePointer<AtomicWord>?
    /// Whether chunks past the first mebibyte are huge pages of their own, where the system
    /// gives them.
    private let hugePages: Bool

    /// A chunk starts with three words: the bytes taken from it (counted past its capacity by
    /// callers that found it full), its capacity in bytes, and the previous chunk's address.
    private static var headerWords: Int { 3 }
    private static var smallestChunk: Int { 4 << 10 }
    private static var largestChunk: Int { 1 << 20 }
    /// The largest block taken from a chunk; larger ones come from the heap.
    package static var largestBlock: Int { 16 << 10 }
    /// The capacity of a chunk that is a huge page of its own: the page less the header. No
    /// chunk from `malloc` has it (they are at most ``largestChunk``), so it tells how a chunk
    /// is freed.
    package static var hugePageChunk: Int { DocumentPages.hugePage - headerWords * MemoryLayout<AtomicWord>.stride }

    /// An arena that hands out at most `budget` bytes of chunks; none at all for 0. With
    /// `hugePages`, chunks past the first mebibyte are huge pages of their own, on systems that
    /// give them: for large documents, whose caches fill them.
    package init(budget: Int, hugePages: Bool = false) {
        // Only Linux maps them (``DocumentPages/mapHugePage()``): elsewhere every chunk comes from the
        // heap, and no chunk asks the budget for a huge page first.
        #if os(Linux)
        self.hugePages = hugePages
        #else
        self.hugePages = false
        #endif
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
            Self.free(chunk: header)
        }
        freePlain(control)
    }

    /// The address and capacity in bytes of each chunk, newest first, for tests.
    package var chunks: [(address: Int, capacity: Int)] {
        var found: [(address: Int, capacity: Int)] = []
        var chunk = control?.load(ordering: .acquiring) ?? 0
        while let header = UnsafeMutablePointer<AtomicWord>(bitPattern: chunk) {
            found.append((Int(bitPattern: chunk), Int((header + 1).load(ordering: .relaxed))))
            chunk = (header + 2).load(ordering: .relaxed)
        }
        return found
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
        let doubled = max(min(max(previous * 2, Self.smallestChunk), Self.largestChunk), bytes)
        let hugePage = hugePages && doubled == Self.largestChunk
        var capacity = hugePage ? Self.hugePageChunk : doubled
        // Every chunk added pays for itself out of the budget, and gives its share back when it
        // loses a race. A spent budget is seen with a load: the models made after it do not
        // write to the word.
        let budget = control + 1
        guard Int(bitPattern: budget.load(ordering: .relaxed)) >= capacity else { return .spent }
        guard Int(bitPattern: budget.wrappingAdd(UInt(bitPattern: -capacity), ordering: .relaxed)) >= capacity else {
            budget.wrappingAdd(UInt(capacity), ordering: .relaxed)
            return .spent
        }
        let header: UnsafeMutablePointer<AtomicWord>
        if hugePage, let page = DocumentPages.mapHugePage() {
            header = page.bindMemory(to: AtomicWord.self, capacity: DocumentPages.hugePage / MemoryLayout<AtomicWord>.stride)
        } else {
            if hugePage {
                // The system refused: a chunk from the heap, and the difference back to the budget.
                budget.wrappingAdd(UInt(capacity - doubled), ordering: .relaxed)
                capacity = doubled
            }
            header = allocatePlain(AtomicWord.self, capacity: Self.headerWords + capacity / MemoryLayout<AtomicWord>.stride)
        }
        header.initialize(to: AtomicWord(UInt(bytes)))
        (header + 1).initialize(to: AtomicWord(UInt(capacity)))
        (header + 2).initialize(to: AtomicWord(chunk))
        guard control.compareExchange(expected: chunk, desired: UInt(bitPattern: header), ordering: .acquiringAndReleasing).exchanged
        else {
            Self.free(chunk: header)
            budget.wrappingAdd(UInt(capacity), ordering: .relaxed)
            return .raced
        }
        return .added(header + Self.headerWords)
    }

    /// Gives a chunk back as it was taken: a huge page of its own to the system, others to the heap.
    private static func free(chunk header: UnsafeMutablePointer<AtomicWord>) {
        if Int((header + 1).load(ordering: .relaxed)) == hugePageChunk {
            DocumentPages.unmapHugePage(UnsafeMutableRawPointer(header))
        } else {
            freePlain(header)
        }
    }
}
