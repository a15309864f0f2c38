import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

@Suite("Document arena")
struct DocumentArenaTests {
    /// Fills each block with its own number and checks every word afterwards: blocks that
    /// overlapped would overwrite each other.
    static func fillAndCheck(_ blocks: [(UnsafeMutablePointer<AtomicWord>, Int)], tag: UInt = 0) -> Int {
        for (number, (base, words)) in blocks.enumerated() {
            for word in 0..<words { (base + word).initialize(to: AtomicWord(tag << 32 | UInt(number))) }
        }
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
            blocks.append((base, words))
            bytes += words * 8
        }
        #expect(Self.fillAndCheck(blocks) == 0)
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
    final class Blocks: @unchecked Sendable {
        // @unchecked Sendable: each thread writes only its own element.
        var byThread: [[(UnsafeMutablePointer<AtomicWord>, Int)]]
        init(threads: Int) { byThread = Array(repeating: [], count: threads) }
    }

    /// Eight threads take blocks from one arena at once, across many new chunks and past its
    /// budget: no two blocks overlap, and no more than the budget is handed out.
    @Test func threadsTakeBlocksApart() {
        let threads = 8
        let budget = 2 << 20
        let arena = DocumentArena(budget: budget)
        let blocks = Blocks(threads: threads)
        let refused = SharedWord()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SplitMix64(seed: UInt64(thread) + 1)
            var mine: [(UnsafeMutablePointer<AtomicWord>, Int)] = []
            for _ in 0..<20_000 {
                let words = Int(random.next() % 24) + 1
                guard let base = arena.allocate(words: words) else {
                    refused.add(1)
                    continue
                }
                mine.append((base, words))
            }
            blocks.byThread[thread] = mine
        }
        var wrong = 0
        for (thread, mine) in blocks.byThread.enumerated() {
            wrong += DocumentArenaTests.fillAndCheck(mine, tag: UInt(thread) + 1)
        }
        #expect(wrong == 0)
        let all = blocks.byThread.flatMap { $0 }.sorted { $0.0 < $1.0 }
        for (first, second) in zip(all, all.dropFirst()) where first.0 + first.1 > second.0 {
            Issue.record("blocks overlap")
            break
        }
        // 20,000 blocks of 100 bytes on average per thread is 16 MB: the budget runs out.
        #expect(refused.count > 0)
        #expect(all.reduce(0) { $0 + $1.1 * 8 } <= budget)
    }
}
