import Foundation
import Testing
@_spi(GeneratedAccessors) @testable import JSONModelKit
import JSONModelKitTestSupport

/// Values of every inline kind: trivial (numbers, a Bool, a Date) and holding references
/// (strings, optional strings, string arrays), and a nested model, kept as its reference.
final class InlineMix: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.flag(Bool.self)
        p.when(Date?.self)
        p.text(String.self)
        p.note(String?.self)
        p.tags([String].self)
        p.child(InlineMix?.self)
    }
}

/// Arrays whose inline values a model frees directly (`[String]`, `[Int]`), and others it frees
/// through their type's metadata.
final class InlineArrays: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.ints([Int].self)
        p.doubles([Double].self)
        p.strings([String]?.self)
        p.maybeInts([Int]?.self)
        p.maybeDoubles([Double]?.self)
        p.flags([Bool].self)
        p.dates([Date]?.self)
    }
}

/// Plain first reads store their values in the model's slots, without an object each
/// (`CacheSlots`): these tests hold that every reader sees the same value, that the values are
/// freed with the model, and that concurrent first reads agree.
@Suite("Inline cached values")
struct InlineValueTests {
    static let long = String(repeating: "é", count: 40)  // not a small string: held by reference

    static func json(_ id: Int) -> String {
        #"{"id": \#(id), "flag": true, "when": "2024-05-06T07:08:09Z", "text": "\#(long)\#(id)", "note": "n", "#
            + #""tags": ["a", "\#(long)"], "child": {"id": \#(id + 1), "text": "inner"}}"#
    }

    /// The sums eight concurrent tasks return, each given its number.
    static func sumsOfEightTasks(_ sum: @escaping @Sendable (Int) -> Int) async -> [Int] {
        await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 { group.addTask { sum(task) } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
    }

    @Test func theLayoutPutsEachPlainValueAfterTheSlots() {
        let metadata = InlineMix.modelMetadata
        let inline = metadata.inlineLayouts.map { $0 != nil }
        #expect(inline == [true, true, true, true, true, true, true])
        #expect(metadata.inlineModels == 1 << 6)
        // Packed by alignment, those of a whole number of words first: Int 8, String 16, String? 16,
        // [String] 8, InlineMix? 8, then Date? 9 and the Bool in the byte after it. In declared
        // order the Bool took 8 bytes and the Date? a further 7 of padding.
        let slots = metadata.properties.count * 8
        let offsets = metadata.inlineLayouts.map { $0!.offset - slots }
        #expect(offsets == [0, 65, 56, 8, 24, 40, 48])
        #expect(metadata.inlineBytes == 8 + 16 + 16 + 8 + 8 + 9 + 1)
        // No two values overlap.
        let sizes = [8, 1, 9, 16, 16, 8, 8]
        let ranges = zip(offsets, sizes).map { $0..<($0 + $1) }.sorted { $0.lowerBound < $1.lowerBound }
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
    }

    /// The fast read knows a slot's bits but for the offset from the type it reads alone: the
    /// type's bits and whether its values hold references, which the layout must have set the
    /// same way for every inline kind (a mismatch would send every cached read down the
    /// general path).
    @Test func theFastReadExpectsTheBitsTheLayoutSets() {
        let layouts = InlineMix.modelMetadata.inlineLayouts.map { $0!.bits &<< 16 }
        let expected = [
            CacheSlots.inlineBits(of: Int.self), CacheSlots.inlineBits(of: Bool.self),
            CacheSlots.inlineBits(of: Date?.self), CacheSlots.inlineBits(of: String.self),
            CacheSlots.inlineBits(of: String?.self), CacheSlots.inlineBits(of: [String].self),
            CacheSlots.inlineBits(of: InlineMix?.self),
        ].map { $0 &<< 16 }
        #expect(layouts == expected)
        #expect(CacheSlots.inlineBits(of: Int.self) & CacheSlots.tagMask == CacheSlots.inlineTag)
        #expect(CacheSlots.inlineBits(of: String.self) & CacheSlots.tagMask == CacheSlots.inlineDestroyTag)
    }

    @Test func everyReaderSeesTheInlineValue() throws {
        let model = try InlineMix(json: Self.json(1))
        let text: String = model.text
        #expect(text == Self.long + "1")
        #expect(model.cachedPropertyCount == 1)
        // Again through the fast read, as another type, untyped, in descriptions and as JSON.
        let again: String = model.text
        let optional: String? = model.text
        #expect(again == text)
        #expect(optional == text)
        #expect(model.jsonModel.value(forProperty: "text") as? String == text)
        #expect(model.jsonModel.jsonValue(forProperty: "text") == .string(text))
        #expect(model.debugDescription.contains(text))
        let tags: [String] = model.tags
        let when: Date? = model.when
        let note: String? = model.note
        let id: Int = model.id
        let flag: Bool = model.flag
        #expect(tags == ["a", Self.long])
        #expect(when == Date(timeIntervalSince1970: 1_714_979_289))
        #expect(note == "n")
        #expect(id == 1)
        #expect(flag)
        let child: InlineMix? = model.child
        let childText: String? = child?.text
        #expect(childText == "inner")
        #expect(model.cachedPropertyCount == 7)
        try model.jsonModel.validate()
    }

    /// A nested model read the first time is kept in its parent's slots as a reference: every
    /// read, typed or not, gives that one instance, and it is freed with its parent.
    @Test func aNestedModelIsOneInstanceFreedWithItsParent() throws {
        weak var weakChild: InlineMix?
        do {
            let model = try InlineMix(json: Self.json(5))
            let child: InlineMix? = model.child
            let again: InlineMix? = model.child
            let untyped = model.jsonModel.value(forProperty: "child") as? InlineMix
            let asBase: JSONModel? = model[property: "child"]
            #expect(child != nil)
            #expect(child === again)
            #expect(child === untyped)
            #expect(child === asBase)
            #expect(model.jsonModel.jsonValue(forProperty: "child")?["text"] == .string("inner"))
            #expect(model.jsonModel.fullDescription.contains("inner"))
            weakChild = child
        }
        #expect(weakChild == nil)
        // A null child reads nil and frees nothing.
        let empty = try InlineMix(json: #"{"child": null}"#)
        let none: InlineMix? = empty.child
        #expect(none == nil)
    }

    /// The walk that finds a model's members is claimed in the leader's slot: a second thread
    /// waits until the walker publishes it, then finds the walk done and the members recorded.
    @Test func theWalkIsClaimedOnceAndWaitedFor() {
        let slots = CacheSlots(count: 3)
        defer { slots.deallocate() }
        #expect(slots.claimWalk(leader: 1))
        #expect((slots.base + 1).load(ordering: .relaxed) == CacheSlots.claimed)
        let returned = SharedWord()
        let finished = DispatchGroup()
        finished.enter()
        Thread {
            returned.store(slots.claimWalk(leader: 1) ? 2 : 1)
            finished.leave()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(returned.value == 0, "the second thread did not wait for the walk")
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3) { positions in
            _ = positions.initialize(from: [7, 9, 0])
            slots.recordMembers([0, 1, 2], at: positions, leader: 1)
        }
        slots.publishMember(9, at: 1)
        finished.wait()
        #expect(returned.value == 1, "the walk is done: nobody claims it again")
        #expect((0..<3).map { (slots.base + $0).load(ordering: .acquiring) } == [7, 9, 0].map(CacheSlots.member))
        #expect(!slots.claimWalk(leader: 1))
    }

    /// A thread waiting for a claimed slot sleeps rather than spins: over a wait of 300 ms it
    /// uses a small part of that in CPU time, and it sees the value published at the end.
    @Test func aWaiterForAClaimedSlotSleeps() {
        let slots = CacheSlots(count: 1)
        defer { slots.deallocate() }
        #expect(slots.claimWalk(leader: 0))
        let seen = Locked<(bits: UInt, cpu: Double)>((0, 0))
        let finished = DispatchGroup()
        finished.enter()
        Thread {
            let start = Self.threadCPUSeconds()
            let bits = slots.awaitUnclaimed(at: 0)
            let used = Self.threadCPUSeconds() - start
            seen.withLock { $0 = (bits, used) }
            finished.leave()
        }.start()
        Thread.sleep(forTimeInterval: 0.3)
        slots.publishMember(5, at: 0)
        finished.wait()
        let (bits, cpu) = seen.withLock { $0 }
        #expect(bits == CacheSlots.member(5))
        #expect(cpu < 0.3 / 4, "the waiter used \(cpu) s of CPU time waiting 0.3 s")
    }

    /// The CPU time the calling thread has used, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Threads racing to make the first read of a nested model all get the same instance.
    @Test func concurrentFirstReadsOfANestedModelGiveOneInstance() async throws {
        for _ in 0..<50 {
            let models = try (0..<20).map { try InlineMix(json: Self.json($0)) }
            let seen = await withTaskGroup(of: [ObjectIdentifier].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        models.map { model in
                            let child: InlineMix? = model.child
                            return ObjectIdentifier(child!)
                        }
                    }
                }
                return await group.reduce(into: [[ObjectIdentifier]]()) { $0.append($1) }
            }
            #expect(Set(seen).count == 1)
        }
    }

    /// The lock and mutable state of a model are made on first use: reading every property of
    /// a clean model, describing it and writing it out make none; a diagnostic or a write does.
    @Test func cleanImmutableModelsMakeNoLockedState() throws {
        let model = try InlineMix(json: Self.json(3))
        for name in model.jsonModel.propertyNames { _ = model.jsonModel.value(forProperty: name) }
        _ = model.debugDescription
        _ = model.jsonModel.json()
        #expect(model.jsonModel.diagnostics.isEmpty)
        let cleanIsMade = model.state.isMade
        #expect(!cleanIsMade)
        let bad = try InlineMix(json: #"{"id": "x"}"#)
        let id: Int = bad.id
        #expect(id == 0)
        let badIsMade = bad.state.isMade
        #expect(badIsMade)
        #expect(bad.jsonModel.diagnostics.count == 1)
        let mutable = try InlineMix(json: Self.json(4), options: .mutable)
        mutable.text = "t"
        let mutableIsMade = mutable.state.isMade
        #expect(mutableIsMade)
    }

    @Test func aValueThatIsNotPlainTakesAnEntry() throws {
        // An escaped string, a number for the date, a mixed array: the general path's entries.
        let model = try InlineMix(json: #"{"id": 1.0, "text": "a\"b", "when": 0, "tags": ["a", {}], "note": null}"#)
        let id: Int = model.id
        let text: String = model.text
        let when: Date? = model.when
        let tags: [String] = model.tags
        let note: String? = model.note
        #expect(id == 1)
        #expect(text == "a\"b")
        #expect(when == Date(timeIntervalSince1970: 0))
        #expect(tags == ["a"])
        #expect(note == nil)
        #expect(model.jsonModel.diagnostics.count == 1)  // the object in the string array
    }

    @Test func copiesAndMutableModelsReadTheSameValues() throws {
        let model = try InlineMix(json: Self.json(2))
        let text: String = model.text
        let copy = model.jsonModel.mutableCopy()
        let copied: String = copy.text
        #expect(copied == text)
        copy.text = "changed"
        let changed: String = copy.text
        #expect(changed == "changed")
        let original: String = model.text
        #expect(original == text)
    }

    /// Every thread makes the first read of each property of the same models at once: the slot
    /// is claimed by one, and the others read its value or convert their own.
    @Test func concurrentFirstReadsAgree() async throws {
        let models = try (0..<200).map { try InlineMix(json: Self.json($0)) }
        let sums = await Self.sumsOfEightTasks { _ in
            var sum = 0
            for model in models {
                let text: String = model.text
                let tags: [String] = model.tags
                let note: String? = model.note
                let id: Int = model.id
                sum &+= text.utf8.count &+ tags.count &+ (note?.utf8.count ?? 0) &+ id
            }
            return sum
        }
        #expect(Set(sums).count == 1)
        for (index, model) in models.enumerated() {
            let text: String = model.text
            #expect(text == Self.long + "\(index)")
        }
    }

    /// The same with half the threads reading as typed members do, with each property's place
    /// (a right one, and for `note` a wrong one), and half by name.
    @Test func concurrentFirstReadsWithAndWithoutPlacesAgree() async throws {
        let models = try (0..<200).map { try InlineMix(json: Self.json($0)) }
        let sums = await Self.sumsOfEightTasks { task in
            var sum = 0
            for model in models {
                let text: String, tags: [String], note: String?, id: Int
                if task.isMultiple(of: 2) {
                    (text, tags) = (model[property: "text", ordinal: 3], model[property: "tags", ordinal: 5])
                    (note, id) = (model[property: "note", ordinal: 0], model[property: "id", ordinal: 0])
                } else {
                    (text, tags, note, id) = (model.text, model.tags, model.note, model.id)
                }
                sum &+= text.utf8.count &+ tags.count &+ (note?.utf8.count ?? 0) &+ id
            }
            return sum
        }
        #expect(Set(sums).count == 1)
        #expect(models.allSatisfy { $0.cachedPropertyCount == 4 })
    }

    /// The same for optionals whose keys are missing or null, stored as nil in their slots:
    /// every thread reads nil, the present values agree, and nothing is recorded.
    @Test func concurrentFirstReadsOfMissingAndNullOptionalsAgree() async throws {
        let models = try (0..<200).map { index in
            try AbsentOptionals(json: index.isMultiple(of: 2) ? #"{"int": \#(index)}"# : #"{"int": \#(index), "bool": null, "string": null}"#)
        }
        let sums = await Self.sumsOfEightTasks { _ in
            var sum = 0
            for model in models {
                let bool: Bool? = model.bool
                let string: String? = model.string
                let double: Double? = model.double
                let int: Int = model.int
                sum &+= (bool == nil ? 1 : 100) &+ (string == nil ? 1 : 100) &+ (double == nil ? 1 : 100) &+ int
            }
            return sum
        }
        #expect(Set(sums) == [3 * 200 + (0..<200).reduce(0, +)])
        #expect(models.allSatisfy { $0.jsonModel.diagnostics.isEmpty })
    }

    /// The same for values converters read (ConvertedFirstRead.swift): string and raw-value
    /// enums, `enumValues`, a declared date format, a UUID read from its bytes, an optional
    /// missing in half the models. Every thread reads the same values, the interned enum value
    /// is the shared instance, and nothing is recorded.
    @Test func concurrentFirstReadsOfConvertedValuesAgree() async throws {
        let models = try (0..<200).map { index in
            let status = index.isMultiple(of: 3) ? "open" : "closed"
            let maybe = index.isMultiple(of: 2) ? #", "maybeStatus": "open""# : ""
            return try ConvertedReads(json: #"{"status": "\#(status)", "shape": "square", "level": 2, "day": "2024-02-29", "#
                + #""stamp": "2024-05-06T07:08:09Z", "color": "red", "key": "6ba7b810-9dad-11d1-80b4-00c04fd430c8""#
                + maybe + "}")
        }
        let sums = await Self.sumsOfEightTasks { _ in
            var sum = 0
            for model in models {
                let status: ReadStatus = model.status
                let maybe: ReadStatus? = model.maybeStatus
                let shape: ReadShape? = model.shape
                let level: ReadLevel? = model.level
                let day: Date? = model.day
                let stamp: Date = model.stamp
                let color: String = model.color
                let key: UUID = model.key
                sum &+= (status == .open ? 1 : 2) &+ (maybe == nil ? 10 : 20) &+ (shape == .square ? 100 : 0)
                sum &+= (level?.rawValue ?? 0) &+ Int(day?.timeIntervalSince1970 ?? 0) &+ Int(stamp.timeIntervalSince1970)
                sum &+= color.utf8.count &+ Int(key.uuid.0)
            }
            return sum
        }
        #expect(Set(sums).count == 1)
        #expect(models.allSatisfy { $0.jsonModel.diagnostics.isEmpty })
        #expect(models.allSatisfy { ($0.status as ReadStatus).value.isInterned })
    }

    /// An array read inline is the model's until the model goes: a write to the reader's copy
    /// copies the elements while the model lives, and writes in place once it is freed, for
    /// each type the release frees directly and for one it frees through the type's metadata.
    @Test func inlineArraysAreReleasedWithTheirModel() throws {
        let json = #"{"ints": [1, 2], "doubles": [1.5], "strings": ["s"], "maybeInts": [3], "#
            + #""maybeDoubles": [2.5], "flags": [true], "dates": ["2024-05-06T07:08:09Z"]}"#
        /// Whether a write to `array` leaves its elements where they were: the array is the only
        /// holder of its storage.
        func writesInPlace<T>(_ array: inout [T]) -> Bool {
            let before = array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            array[0] = array[0]
            return before == array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        func check<T>(_ name: String, as _: [T].Type, optional: Bool) throws {
            var model: InlineArrays? = try InlineArrays(json: json)
            var first: [T] = optional ? (model![property: name] as [T]?)! : model![property: name]
            #expect(!writesInPlace(&first), "\(name): the model holds the same storage")
            var second: [T] = optional ? (model![property: name] as [T]?)! : model![property: name]
            model = nil
            #expect(writesInPlace(&second), "\(name): still held after the model was freed")
        }
        try check("ints", as: [Int].self, optional: false)
        try check("doubles", as: [Double].self, optional: false)
        try check("strings", as: [String].self, optional: true)
        try check("maybeInts", as: [Int].self, optional: true)
        try check("maybeDoubles", as: [Double].self, optional: true)
        try check("flags", as: [Bool].self, optional: false)
        try check("dates", as: [Date].self, optional: true)
    }

    /// Strings read inline are freed with their model: 200 rounds of 100 models, each reading
    /// 30 KB of strings, stay within a few rounds' worth of memory (kept, they would take 600 MB).
    @Test(ChildTestProcess.available) func inlineStringsAreFreedWithTheirModels() throws {
        guard
            let report = try ChildTestProcess.run(
                filter: #"JSONModelKitTests\.InlineValueTests/childReadsAndDropsStrings"#, workload: "strings", label: "the inline strings child"),
            let growth = report.number("growth")
        else { return }
        print("inline values: 200 rounds of 3 MB of strings read and dropped, peak growth \(growth / 1_000_000) MB")
        #expect(report.passed)
        #expect(growth < 60_000_000, "peak growth \(growth) bytes")
    }

    @Test(ChildTestProcess.child())
    func childReadsAndDropsStrings() throws {
        let big = String(repeating: "x", count: 10_000)
        let documents = (0..<100).map { #"{"text": "\#(big)\#($0)", "note": "\#(big)", "tags": ["\#(big)"]}"# }
        let before = ProcessMemory.status("VmRSS")
        ProcessMemory.resetPeak()
        var passed = true
        for _ in 0..<200 {
            let models = try documents.map { try InlineMix(json: $0) }
            for model in models {
                let text: String = model.text
                let note: String? = model.note
                let tags: [String] = model.tags
                passed = passed && text.utf8.count >= 10_000 && note?.utf8.count == 10_000 && tags.count == 1
            }
        }
        let peak = ProcessMemory.status("VmHWM")
        try ChildTestProcess.write(["growth": peak - before, "passed": passed])
    }
}
