import Foundation
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

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
    @Test func makeMayUseTheSameLock() throws {
        // 65 objects on 64 locks: two of them share one.
        let holders = (0..<65).map { _ in Holder() }
        func stripe(_ holder: Holder) -> UInt { (UInt(bitPattern: ObjectIdentifier(holder)) &>> 4) & 63 }
        var byStripe: [UInt: Holder] = [:]
        var pair: (Holder, Holder)?
        for holder in holders {
            if let other = byStripe[stripe(holder)] {
                pair = (other, holder)
                break
            }
            byStripe[stripe(holder)] = holder
        }
        let (first, twin) = try #require(pair)
        let value = StripedLocks.keepOnce(for: first, read: { first.kept }, write: { first.kept = $0 }) {
            StripedLocks.keepOnce(for: twin, read: { twin.kept }, write: { twin.kept = $0 }, make: { 7 }) + 1
        }
        #expect(value == 8)
        #expect(twin.kept == 7)
    }
}
