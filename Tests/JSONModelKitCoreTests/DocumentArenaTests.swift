import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

@Suite("Document arena")
struct DocumentArenaTests {
    /// Fills a block with its number and a tag, so that blocks that overlap overwrite each other.
    static func fill(_ base: UnsafeMutablePointer<AtomicWord>, words: Int, number: Int, tag: UInt = 0) {
        for word in 0..<words { (base + word).initialize(to: AtomicWord(tag << 32 | UInt(number))) }
    }

    /// The words of `blocks` that no longer hold what ``fill(_:words:number:tag:)`` wrote.
    static func check(_ blocks: [(UnsafeMutablePointer<AtomicWord>, Int)], tag: UInt = 0) -> Int {
        var wrong = 0
        for (number, (base, words)) in blocks.enumerated() {
            for word in 0..<words where (base + word).load(ordering: .relaxed) != tag << 32 | UInt(number) { wrong += 1 }
        }
        return wrong
    }

    @Test func blocksAreAlignedAndApart() throws {
        let arena = DocumentArena(budget: 4 << 20)
        var random = SplitMix64(seed: 7)
        var blocks: [(UnsafeMutablePointer<AtomicWord>, Int)] = []
        var bytes = 0
        // Past a few chunks: 4, 8, 16, … KiB.
        while bytes < 200 << 10 {
            let words = Int(random.next() % 40) + 1
            let block = arena.allocate(words: words)
            let base = try #require(block)
            #expect(Int(bitPattern: base) % 8 == 0)
            Self.fill(base, words: words, number: blocks.count)
            blocks.append((base, words))
            bytes += words * 8
        }
        #expect(Self.check(blocks) == 0)
        let sorted = blocks.sorted { $0.0 < $1.0 }
        for (first, second) in zip(sorted, sorted.dropFirst()) {
            #expect(first.0 + first.1 <= second.0)
        }
    }

    @Test func stopsAtItsBudget() throws {
        let budget = 64 << 10
        let arena = DocumentArena(budget: budget)
        var taken = 0
        while let _ = arena.allocate(words: 3) {
            taken += 24
            try #require(taken <= budget, "handed out more than its budget")
        }
        // Chunks of 4, 8, 16 and 32 KiB fit in 64 KiB; the next, 64 KiB, does not.
        #expect(taken > 32 << 10)
        let after = arena.allocate(words: 1)
        #expect(after == nil)
    }

    @Test func refusesWithoutABudgetAndLargeBlocks() {
        let none = DocumentArena(budget: 0)
        let fromNone = none.allocate(words: 1)
        #expect(fromNone == nil)
        let arena = DocumentArena(budget: 1 << 20)
        let tooLarge = arena.allocate(words: DocumentArena.largestBlock / 8 + 1)
        let largest = arena.allocate(words: DocumentArena.largestBlock / 8)
        #expect(tooLarge == nil)
        #expect(largest != nil)
    }

    /// A block larger than the chunk the arena would add next (the first is 4 KiB) gets a chunk
    /// that holds it: every word of it is the caller's, and the blocks after it do not overlap it.
    @Test func aBlockLargerThanTheNextChunkGetsRoomForItself() throws {
        for words in [DocumentArena.largestBlock / 8, 4096 / 8 + 1, 3000 / 8] {
            let arena = DocumentArena(budget: 1 << 20)
            var blocks: [(UnsafeMutablePointer<AtomicWord>, Int)] = []
            for size in [words, 3, words, 700, words, 1] {
                let block = arena.allocate(words: size)
                let base = try #require(block)
                Self.fill(base, words: size, number: blocks.count)
                blocks.append((base, size))
            }
            #expect(Self.check(blocks) == 0)
            let sorted = blocks.sorted { $0.0 < $1.0 }
            for (first, second) in zip(sorted, sorted.dropFirst()) {
                #expect(first.0 + first.1 <= second.0)
            }
        }
    }

    /// A large document has an arena, a small one none: a small document makes few models, and
    /// a chunk would cost it more than the heap does.
    @Test func largeDocumentsHaveOne() throws {
        let small = try JSONDocument(string: #"{"a": 1}"#)
        let fromSmall = small.arena.allocate(words: 1)
        #expect(fromSmall == nil)
        let large = try JSONDocument(string: "[" + Array(repeating: #"{"a": 1}"#, count: 4_000).joined(separator: ",") + "]")
        let fromLarge = large.arena.allocate(words: 1)
        #expect(fromLarge != nil)
    }
}

@Suite("Document arena stress", .timeLimit(.minutes(5)))
struct DocumentArenaStressTests {
    /// Eight threads take blocks from one arena at once, across many new chunks and past its
    /// budget: no two blocks overlap, and no more than the budget is handed out.
    @Test func threadsTakeBlocksApart() {
        let threads = 8
        let budget = 2 << 20
        let arena = DocumentArena(budget: budget)
        // Each thread's blocks, as addresses and word counts.
        let blocks = Locked<[[(address: Int, words: Int)]]>(Array(repeating: [], count: threads))
        let refused = SharedWord()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SplitMix64(seed: UInt64(thread) + 1)
            var mine: [(address: Int, words: Int)] = []
            for _ in 0..<20_000 {
                let words = Int(random.next() % 24) + 1
                guard let base = arena.allocate(words: words) else {
                    refused.add(1)
                    continue
                }
                // Written as it is taken: the thread sanitizer reports blocks two threads share.
                DocumentArenaTests.fill(base, words: words, number: mine.count, tag: UInt(thread) + 1)
                mine.append((Int(bitPattern: base), words))
            }
            blocks.withLock { $0[thread] = mine }
        }
        let byThread = blocks.withLock { $0 }.map { mine in
            mine.map { (UnsafeMutablePointer<AtomicWord>(bitPattern: $0.address)!, $0.words) }
        }
        var wrong = 0
        for (thread, mine) in byThread.enumerated() {
            wrong += DocumentArenaTests.check(mine, tag: UInt(thread) + 1)
        }
        #expect(wrong == 0)
        let all = byThread.flatMap { $0 }.sorted { $0.0 < $1.0 }
        for (first, second) in zip(all, all.dropFirst()) where first.0 + first.1 > second.0 {
            Issue.record("blocks overlap")
            break
        }
        // 20,000 blocks of 100 bytes on average per thread is 16 MB: the budget runs out.
        #expect(refused.count > 0)
        #expect(all.reduce(0) { $0 + $1.1 * 8 } <= budget)
    }
}
