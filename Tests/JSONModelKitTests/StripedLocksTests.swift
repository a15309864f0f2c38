import Foundation
import Testing
@testable import JSONModelKitCore

@Suite("Striped locks")
struct StripedLocksTests {
    final class Holder: @unchecked Sendable {
        // @unchecked Sendable: `kept` is touched only under the holder's striped lock.
        var kept: Int?
    }

    /// Threads racing to keep a value for one object all get the one kept first.
    @Test func keepOnceGivesEveryThreadTheSameValue() async {
        let holder = Holder()
        let made = SharedWord()
        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    StripedLocks.keepOnce(
                        for: holder, read: { holder.kept }, write: { holder.kept = $0 },
                        make: { Int(made.add(1)) })
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results).count == 1)
        #expect(results.first == StripedLocks.withLock(for: holder) { holder.kept })
        #expect(made.count >= 1)
    }

    /// `make` runs without the lock: it may keep a value for another object, even one whose
    /// address picks the same lock, without waiting for itself.
    @Test func makeMayUseTheSameLock() {
        let holders = (0..<200).map { _ in Holder() }
        func stripe(_ holder: Holder) -> UInt { (UInt(bitPattern: ObjectIdentifier(holder)) &>> 4) & 63 }
        let first = holders[0]
        guard let twin = holders.dropFirst().first(where: { stripe($0) == stripe(first) }) else {
            Issue.record("no two of 200 objects share a lock")
            return
        }
        let value = StripedLocks.keepOnce(for: first, read: { first.kept }, write: { first.kept = $0 }) {
            StripedLocks.keepOnce(for: twin, read: { twin.kept }, write: { twin.kept = $0 }, make: { 7 }) + 1
        }
        #expect(value == 8)
        #expect(twin.kept == 7)
    }
}
