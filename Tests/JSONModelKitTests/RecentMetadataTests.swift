import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// The table that finds a class's metadata without the registry's lock (`RecentMetadata`):
/// classes whose searches start at the same place are all found, and a full table sends the
/// rest to the lock without losing them.
@Suite("Metadata found without a lock")
struct RecentMetadataTests {
    final class Sample: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) { p.id(Int.self) }
    }

    final class Token {}

    /// Objects whose identifiers stand for classes: the table only compares and hashes them.
    static func keys(_ count: Int) -> (objects: [AnyObject], keys: [ObjectIdentifier]) {
        let objects: [AnyObject] = (0..<count).map { _ in Token() }
        return (objects, objects.map(ObjectIdentifier.init))
    }

    @Test func everyRememberedClassIsFoundUntilTheTableIsFull() {
        let table = RecentMetadata()
        let metadata = ModelRegistry.shared.metadata(for: Sample.self)
        // A full table has had many searches start at a taken place.
        let (objects, keys) = Self.keys(RecentMetadata.count + 10)
        for key in keys { table.remember(metadata, for: key) }
        let found = keys.filter { table.metadata(for: $0) === metadata }.count
        #expect(found == RecentMetadata.count)
        for key in keys.prefix(RecentMetadata.count) { #expect(table.metadata(for: key) === metadata) }
        for key in keys.dropFirst(RecentMetadata.count) { #expect(table.metadata(for: key) == nil) }
        withExtendedLifetime(objects) {}
    }

    @Test func rememberingTwiceTakesOnePlace() {
        let table = RecentMetadata()
        let metadata = ModelRegistry.shared.metadata(for: Sample.self)
        let (objects, keys) = Self.keys(RecentMetadata.count)
        for key in keys { table.remember(metadata, for: key) }
        // Every place is taken by a distinct class: remembering one again needs none.
        for key in keys { table.remember(metadata, for: key) }
        #expect(keys.allSatisfy { table.metadata(for: $0) === metadata })
        withExtendedLifetime(objects) {}
    }

    @Test func anEmptyTableFindsNothing() {
        let (objects, keys) = Self.keys(3)
        let table = RecentMetadata()
        #expect(keys.allSatisfy { table.metadata(for: $0) == nil })
        withExtendedLifetime(objects) {}
    }
}

extension RecentMetadata {
    /// The metadata remembered for `type`, or nil.
    func metadata(for type: ObjectIdentifier) -> ModelMetadata? {
        unretainedMetadata(for: type)?.takeUnretainedValue()
    }
}

@Suite("Metadata table stress", .timeLimit(.minutes(5)))
struct RecentMetadataStressTests {
    /// Eight threads remember and look up classes in one table at once, some the same: each
    /// finds every class it remembered, with its own metadata.
    @Test func threadsRememberAndFindAtOnce() {
        let metadata = ModelRegistry.shared.metadata(for: RecentMetadataTests.Sample.self)
        for _ in 0..<20 {
            let table = RecentMetadata()
            let (objects, keys) = RecentMetadataTests.keys(RecentMetadata.count / 2)
            let wrong = SharedWord()
            StressTests.hammer(rounds: keys.count) { thread, round in
                // Each thread goes through the keys from its own start, so threads meet.
                let key = keys[(thread * 7 + round) % keys.count]
                table.remember(metadata, for: key)
                if table.metadata(for: key) !== metadata { wrong.add(1) }
            }
            #expect(wrong.count == 0)
            #expect(keys.allSatisfy { table.metadata(for: $0) === metadata })
            withExtendedLifetime(objects) {}
        }
    }
}
