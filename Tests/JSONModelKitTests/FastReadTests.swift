import Foundation
import Testing
@_spi(GeneratedAccessors) @testable import JSONModelKit

/// A model with names on both sides of the 15-byte limit of a small `String`.
final class NameLengths: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.short(Int.self)
        p.fifteenBytesLng(Int.self)  // exactly 15 UTF-8 bytes: still a small string
        p.sixteenBytesLong(Int.self)  // 16 bytes: stored out of line, found by hashing its bytes
        p.add("naïveCafé", Int.self)  // non-ASCII, 11 bytes
        p.label(String?.self)
    }
}

/// The read path's first step (the raw-bits name table and lock-free slots) must agree with the
/// general path in every case it does not handle itself.
@Suite("Fast cached reads")
struct FastReadTests {
    let json = #"{"short": 1, "fifteenBytesLng": 2, "sixteenBytesLong": 3, "naïveCafé": 4, "label": "x"}"#

    @Test func literalNamesOfEveryLengthReadTheSameTwice() throws {
        let model = try NameLengths(json: json)
        for _ in 0..<2 {
            let short: Int = model.short
            let fifteen: Int = model.fifteenBytesLng
            let sixteen: Int = model.sixteenBytesLong
            let label: String? = model.label
            #expect([short, fifteen, sixteen] == [1, 2, 3] as [Int])
            #expect(label == "x")
            #expect((model.jsonModel.value(forProperty: "naïveCafé") as? Int) == 4)
        }
        #expect(model.cachedPropertyCount == 5)
    }

    @Test func namesBuiltAtRunTimeFindTheSameProperties() throws {
        let model = try NameLengths(json: json)
        let first: Int = model.short  // caches through the literal
        let built = String(["s", "h", "o", "r", "t"])
        let long = String(repeating: "sixteenBytesLong", count: 1)
        #expect(model.jsonModel.value(forProperty: built) as? Int == first)
        #expect(model.jsonModel.value(forProperty: long) as? Int == 3)
        #expect(model.jsonModel.value(forProperty: "shor") == nil)
        #expect(model.jsonModel.value(forProperty: "shortt") == nil)
        #expect(model.jsonModel.value(forProperty: "") == nil)
    }

    @Test func rawBitsFindOnlyExactNames() {
        let metadata = NameLengths.modelMetadata
        for (ordinal, property) in metadata.properties.enumerated() {
            #expect(metadata.ordinal(of: property.name) == ordinal)
            #expect(metadata.ordinal(of: String(property.name.reversed())) == nil)
        }
        let table = metadata.rawNames.view
        #expect(table.ordinal(of: "short") == 0)
        #expect(table.ordinal(of: "fifteenBytesLng") == 1)
        #expect(table.ordinal(of: "Short") == nil)
        #expect(table.ordinal(of: "label") == 4)
    }

    /// The table keeps the shift its capacity makes in the low bits of its address, so a model
    /// holds it in one word: every name is found, and no other, at every capacity from 4 to 512
    /// places.
    @Test func theNameTableFindsEveryNameAtEveryCapacity() {
        #expect(MemoryLayout<RawNameTable.View>.size == MemoryLayout<UInt>.size)
        for count in [0, 1, 2, 3, 5, 8, 9, 17, 33, 64, 65, 129, 200, 256] {
            let names = (0..<count).map { "name\($0)" }
            let table = RawNameTable(names: names)
            let view = table.view
            #expect(Int(bitPattern: view.bits) & (RawNameTable.alignment - 1) == RawNameTable.offsetShift(table.shift))
            #expect(1 << table.shift >= max(4, 2 * count))
            for (ordinal, name) in names.enumerated() {
                #expect(view.ordinal(of: name) == ordinal)
            }
            #expect(view.ordinal(of: "name\(count)") == nil)
            #expect(view.ordinal(of: "") == nil)
        }
    }

    /// The names also stand by ordinal before the table: each is found at its own ordinal and
    /// at no other, and an ordinal past the last, or below 0, finds nothing.
    @Test func theNameTableChecksANameAtAnOrdinal() {
        for count in [0, 1, 2, 3, 4, 5, 8, 9, 17, 64, 65, 200] {
            let names = (0..<count).map { "name\($0)" }
            let table = RawNameTable(names: names)
            let view = table.view
            for (ordinal, name) in names.enumerated() {
                #expect(view.has(name, at: ordinal))
                #expect(!view.has(name, at: ordinal + 1))
                #expect(ordinal == 0 || !view.has(name, at: ordinal - 1))
                #expect(!view.has("name\(count)", at: ordinal))
            }
            for ordinal in [count, count + 1, count + 100, -1, -2, Int.min, Int.max] {
                #expect(!view.has("name0", at: ordinal))
                #expect(!view.has("", at: ordinal))
            }
            // The lookup by hash still finds every name after the names by ordinal were written.
            for (ordinal, name) in names.enumerated() {
                #expect(view.ordinal(of: name) == ordinal)
            }
        }
    }

    /// A read that brings the property's ordinal, as a generated member does, reads what the
    /// read by name reads whether the ordinal is right or wrong, before and after the value is
    /// cached, for names the check can compare and for names it cannot (16 bytes and more).
    @Test func aReadWithAnOrdinalReadsTheSameRightOrWrong() throws {
        let count = NameLengths.modelMetadata.properties.count
        for ordinals in [(0, 1, 2, 4), (1, 0, 3, 3), (99, -1, Int.max, Int.min)] {
            let model = try NameLengths(json: json)
            for _ in 0..<2 {
                let short: Int = model[property: "short", ordinal: ordinals.0]
                let fifteen: Int = model[property: "fifteenBytesLng", ordinal: ordinals.1]
                let sixteen: Int = model[property: "sixteenBytesLong", ordinal: ordinals.2]
                let label: String? = model[property: "label", ordinal: ordinals.3]
                #expect([short, fifteen, sixteen] == [1, 2, 3] as [Int])
                #expect(label == "x")
                // Read as another type the property converts to, as the read by name allows.
                let optionalShort: Int? = model[property: "short", ordinal: ordinals.0]
                #expect(optionalShort == 1)
            }
            #expect(model.cachedPropertyCount == 4)
        }
        let mutable = try NameLengths(json: json, options: .mutable)
        mutable.short = 10
        let short: Int = mutable[property: "short", ordinal: 0]
        #expect(short == 10)
        #expect(count == 5)
    }

    /// A run of entries that starts at the last place a hash points to goes on past it, into
    /// entries no hash points to, rather than wrapping around to the first.
    @Test func aRunAtTheEndOfTheTableGoesOnPastIt() {
        // Two names make a table of four places (shift 2); find three names whose hash points to
        // the last place, 3.
        let lastPlace = (0..<10_000).lazy.map { "n\($0)" }.filter { name in
            let (first, second) = RawNameTable.rawBits(of: name)
            return RawNameTable.hash(first, second) >> 62 == 3
        }
        let names = Array(lastPlace.prefix(3))
        #expect(names.count == 3)
        let table = RawNameTable(names: Array(names.prefix(2)))
        #expect(table.shift == 2)
        let view = table.view
        #expect(view.ordinal(of: names[0]) == 0)
        #expect(view.ordinal(of: names[1]) == 1)  // in the fifth entry, past the hashed places
        #expect(view.ordinal(of: names[2]) == nil)  // stops at the sixth, empty
        #expect(table.words[4 * 4 + 2] == 1)
        #expect(table.words[5 * 4 + 2] == .max)
    }

    /// The slot's load hands back the slots' address with the bits, for the inline value's load.
    @Test func theSlotLoadHandsBackTheSlotsAddressWithTheBits() throws {
        let model = try NameLengths(json: json)
        let short: Int = model.short
        let label: String? = model.label
        #expect(short == 1 && label == "x")
        for ordinal in 0..<NameLengths.modelMetadata.properties.count {
            let loaded = model.readSlots.bitsAndBase(at: ordinal)
            #expect(loaded.base == model.readSlots.base)
            #expect(loaded.bits == model.readSlots.bits(at: ordinal))
        }
        let inline = model.readSlots.bitsAndBase(at: 0)
        #expect(model.readSlots.inlineValue(inline.bits, as: Int.self) == 1)
    }

    @Test func aTypeOtherThanTheStoredOneTakesTheGeneralPath() throws {
        let model = try NameLengths(json: json)
        let plain: Int = model.short
        let optional: Int? = model.short  // cached as Int, read as Int?
        let unset: String? = model.label
        #expect(plain == 1)
        #expect(optional == 1)
        #expect(unset == "x")
    }

    @Test func mutableModelsNeverUseTheirMetadataEmptySlots() throws {
        let model = try NameLengths(json: json, options: .mutable)
        let before: Int = model.short
        model.short = 10
        let after: Int = model.short
        #expect(before == 1)
        #expect(after == 10)
        // The empty slots the fast read consults for mutable models stay empty.
        #expect(CacheSlots(base: model.readSlots.base, count: NameLengths.modelMetadata.properties.count).filledCount == 0)
        let frozen = model.jsonModel.copy()
        let copied: Int = frozen.short
        #expect(copied == 10)
    }
}

/// One property of each type the scalar first read handles, plus their optionals.
final class PlainScalars: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.int(Int.self)
        p.int8(Int8.self)
        p.uint16(UInt16.self)
        p.int64(Int64.self)
        p.uint64(UInt64.self)
        p.double(Double.self)
        p.bool(Bool.self)
        p.string(String.self)
        p.maybeInt(Int?.self, jsonPath: "int", readOnly: true)
        p.maybeDouble(Double?.self, jsonPath: "double", readOnly: true)
        p.maybeString(String?.self, jsonPath: "string", readOnly: true)
        p.maybeBool(Bool?.self, jsonPath: "bool", readOnly: true)
        p.date(Date.self, default: Date(timeIntervalSince1970: 7))
        p.maybeDate(Date?.self, jsonPath: "date", readOnly: true)
        p.strings([String].self)
        p.maybeStrings([String]?.self, jsonPath: "strings", readOnly: true)
        p.shape(PolyShape.self)
        p.maybeShape(PolyShape?.self, jsonPath: "shape", readOnly: true)
    }
}

/// Optionals with and without a declared default, for the missing-or-null shortcut.
final class AbsentOptionals: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.int(Int.self)
        p.bool(Bool?.self)
        p.string(String?.self)
        p.double(Double?.self)
        p.date(Date?.self)
        p.defaulted(String?.self, default: "none")
        p.plain(Int.self)
    }
}

@Suite("Scalar first reads")
struct ScalarFirstReadTests {
    /// JSON values of every kind and the edge cases of each conversion rule.
    static let values: [String] = [
        "0", "-0", "1", "-1", "127", "128", "-129", "65535", "65536", "1.0", "1e2", "1.5", "-1.5", "2.5e-3",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "1e400", "-1e400", "1e-400",
        #""""#, #""plain""#, #""esc\"aped\u00e9""#, #""42""#, #""yes""#, #""true""#, "true", "false", "null",
        "[]", "{}", "[1]", #"{"a":1}"#,
        // Dates: ISO 8601 forms, the fallback formats, numbers, escapes, years out of range.
        #""2024-01-02T03:04:05Z""#, #""2024-01-02T03:04:05.123+02:00""#, #""2024-01-02""#,
        #""2024-01-02 03:04:05""#, #""10000-01-01T00:00:00Z""#, #""2024-13-45T99:00:00Z""#,
        #""2024-01-02T03:04:05\u005A""#, "1700000000", "1700000000.5",
        // String arrays: all strings, escaped ones, a mix, nested arrays.
        #"["a", "b"]"#, #"["\u00e9", ""]"#, #"["a", 1]"#, #"[null]"#, #"[["a"]]"#,
        // Objects for the nested model, plain and picked by `modelClass(for:)`.
        #"{"type": "circle", "radius": 2}"#, #"{"type": "circle", "ring": true, "inner": 1}"#,
        #"{"type": "bogus"}"#, #"{"type": 1}"#,
    ]

    /// The immutable model takes the scalar first read where it can; the mutable one always takes
    /// the general path. Both must give the same values and the same diagnostics.
    @Test(arguments: values)
    func sameValuesAndDiagnosticsAsTheGeneralPath(_ value: String) throws {
        let keys = ["int", "int8", "uint16", "int64", "uint64", "double", "bool", "string", "date", "strings", "shape"]
        let json = "{" + keys.map { "\"\($0)\": \(value)" }.joined(separator: ", ") + "}"
        let fast = try PlainScalars(json: json)
        let general = try PlainScalars(json: json, options: .mutable)
        for name in fast.jsonModel.propertyNames {
            let lhs = fast.jsonModel.jsonValue(forProperty: name)
            let rhs = general.jsonModel.jsonValue(forProperty: name)
            #expect(lhs == rhs, "\(name) from \(value)")
            #expect(String(describing: fast.jsonModel.value(forProperty: name)) == String(describing: general.jsonModel.value(forProperty: name)))
        }
        let shapes = [fast.jsonModel.value(forProperty: "shape"), general.jsonModel.value(forProperty: "shape")].map { $0.map { "\(type(of: $0))" } }
        #expect(shapes[0] == shapes[1], "the nested model's class from \(value)")
        #expect(fast.jsonModel.diagnostics.map(\.description) == general.jsonModel.diagnostics.map(\.description), "\(value)")
    }

    @Test func missingKeysAndNullTakeTheGeneralPath() throws {
        let model = try PlainScalars(json: #"{"int": null}"#)
        let int: Int = model.int
        let maybe: Int? = model.maybeInt
        let string: String = model.string
        let date: Date = model.date
        let shape: PolyShape = model.shape
        #expect(date == Date(timeIntervalSince1970: 7))
        #expect(shape.jsonModel.json() == [:])
        #expect(int == 0)
        #expect(maybe == nil)
        #expect(string == "")
    }

    /// An optional with no declared default reads nil for a missing key or null without the
    /// general path: the value goes in the model's slots like any plain value. One with a
    /// default, or a non-optional, still reads its default through the general path.
    @Test func missingAndNullOptionalsReadNilInTheirSlots() throws {
        for json in [#"{"int": 1}"#, #"{"int": 1, "bool": null, "string": null, "double": null, "date": null}"#] {
            let model = try AbsentOptionals(json: json)
            let general = try AbsentOptionals(json: json, options: .mutable)
            let slots = try #require(model.slots)
            for name in ["bool", "string", "double", "date"] {
                let ordinal = try #require(AbsentOptionals.modelMetadata.property(named: name)).ordinal
                #expect(model.jsonModel.value(forProperty: name).map { "\($0)" } == general.jsonModel.value(forProperty: name).map { "\($0)" })
                guard case .inline = slots.content(at: ordinal, lock: model.state) else {
                    Issue.record("\(name) from \(json) is not inline")
                    continue
                }
            }
            let bool: Bool? = model.bool
            let string: String? = model.string
            let double: Double? = model.double
            let date: Date? = model.date
            let defaulted: String? = model.defaulted
            let plain: Int = model.plain
            let defaultedOrdinal = try #require(AbsentOptionals.modelMetadata.property(named: "defaulted")).ordinal
            #expect(bool == nil && string == nil && double == nil && date == nil)
            #expect(defaulted == "none")
            #expect(plain == 0)
            if case .inline = slots.content(at: defaultedOrdinal, lock: model.state) {
                Issue.record("a declared default took the shortcut")
            }
            #expect(model.jsonModel.diagnostics.isEmpty)
            #expect(general.jsonModel.diagnostics.isEmpty)
            #expect(model.jsonModel.json() == general.jsonModel.json())
        }
    }

    @Test func aConverterRegisteredForTheTypeTurnsTheShortcutOff() throws {
        // Declarations with options that bring converters never get the shortcut.
        let metadata = PlainScalars.modelMetadata
        #expect(metadata.properties.filter { $0.scalarFirstRead == nil }.map(\.name) == [])
        let withOptions = TestUser.modelMetadata
        #expect(withOptions.property(named: "city")?.scalarFirstRead == nil)  // a nested path
        #expect(withOptions.property(named: "id")?.scalarFirstRead == nil)  // three alternative keys
    }
}

/// Properties read from one key each, as the member index finds them (`MemberIndex.swift`).
final class KeyedMembers: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.a(Int.self)
        p.b(String?.self)
        p.alias(String?.self, jsonPath: "b", readOnly: true)  // shares a key with `b`
        p.quoted(Int?.self, jsonPath: "say \"hi\"")
        p.far(Int?.self, jsonPath: "k99")
        p.nested(Int?.self, jsonPath: "n.x")  // not indexed: a nested path
    }
}

/// Keys the member index guesses in order, with others of the same lengths among them.
final class GuessedMembers: JSONModel, DynamicMembers, @unchecked Sendable {
    static let long70 = String(repeating: "x", count: 70)
    static let long64 = String(repeating: "x", count: 64)

    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int?.self)
        p.name(String?.self)
        p.alias(String?.self, jsonPath: "name", readOnly: true)  // shares a key with `name`
        p.kind(String?.self)
        p.long70(Int?.self, jsonPath: JSONPath([.key(GuessedMembers.long70)]))
        p.long64(Int?.self, jsonPath: JSONPath([.key(GuessedMembers.long64)]))
    }
}

@Suite("Member index")
struct MemberIndexTests {
    /// Each property reads what a lookup of its key in the document finds, whatever the order of
    /// the keys: the declared order (every guess right), others (guesses wrong), keys of the
    /// lengths of indexed ones that are not indexed, keys of 63 bytes or more, and duplicates.
    @Test func keysAreFoundInAnyOrder() throws {
        let members = [
            #""id": 1"#, #""name": "n""#, #""kind": "k""#, #""\#(GuessedMembers.long70)": 70"#,
            #""\#(GuessedMembers.long64)": 64"#, #""di": 2"#, #""nme": "z""#, #""mane": "m""#,
            #""\#(String(repeating: "x", count: 65))": 65"#, #""\#(String(repeating: "y", count: 70))": 71"#,
        ]
        var orders: [[String]] = []
        for shift in 0..<members.count {
            let rotated = Array(members[shift...] + members[..<shift])
            orders += [rotated, rotated.reversed()]
        }
        orders.append(members + [#""id": 3"#, #""name": "again""#])  // the last of duplicates wins
        orders.append([#""name": "a""#, #""name": "b""#, #""id": 4"#, #""id": 5"#])
        let keys = ["id": "id", "name": "name", "alias": "name", "kind": "kind", "long70": GuessedMembers.long70,
                    "long64": GuessedMembers.long64]
        for order in orders {
            let json = "{" + order.joined(separator: ", ") + "}"
            let document = try JSONDocument(string: json)
            let model = try GuessedMembers(json: json)
            for (property, key) in keys.sorted(by: { $0.key < $1.key }) {
                let value = model.jsonModel.value(forProperty: property)
                guard let node = document.root[key] else {
                    #expect(value == nil, "\(property) in \(json)")
                    continue
                }
                if let number = node.intValue {
                    #expect(value as? Int == number, "\(property) in \(json)")
                } else {
                    #expect(value as? String == node.stringValue, "\(property) in \(json)")
                }
            }
        }
    }

    @Test func theLastOfDuplicateKeysWinsAsInTheDocument() throws {
        let model = try KeyedMembers(json: #"{"a": 1, "b": "first", "a": 2, "b": "second"}"#)
        let a: Int = model.a
        let b: String? = model.b
        let alias: String? = model.alias
        #expect(a == 2)
        #expect(b == "second")
        #expect(alias == "second")
        #expect(model.jsonModel.json(options: .omitNonSerialized) != nil)
        #expect(try JSONDocument(string: #"{"a": 1, "a": 2}"#).root["a"]?.intValue == 2)
    }

    @Test func escapedKeysMatchByTheirText() throws {
        let model = try KeyedMembers(json: #"{"\u0061": 5, "say \"hi\"": 7, "\u0062": "x"}"#)
        let a: Int = model.a
        let quoted: Int? = model.quoted
        let b: String? = model.b
        #expect(a == 5)
        #expect(quoted == 7)
        #expect(b == "x")
    }

    @Test func missingKeysReadTheirDefaultsAndStayUnread() throws {
        let model = try KeyedMembers(json: #"{"n": {"x": 3}}"#)
        let b: String? = model.b
        #expect(b == nil)
        // Finding the members records places, not values.
        #expect(model.cachedPropertyCount == 1)
        let a: Int = model.a
        let nested: Int? = model.nested
        #expect(a == 0)
        #expect(nested == 3)
        #expect(model.cachedPropertyCount == 3)
    }

    @Test func largeObjectsAreWalkedOnce() throws {
        let members = (0..<100).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let model = try KeyedMembers(json: "{\(members), \"a\": -1}")
        let far: Int? = model.far
        let a: Int = model.a
        #expect(far == 99)
        #expect(a == -1)
    }

    @Test func everyReadOrderGivesTheSameValues() throws {
        let json = #"{"b": "x", "a": 4, "k99": 9, "n": {"x": 1}, "say \"hi\"": 2}"#
        let names = ["a", "b", "alias", "quoted", "far", "nested"]
        var expected: [String]?
        for shift in 0..<names.count {
            let model = try KeyedMembers(json: json)
            let order = Array(names[shift...] + names[..<shift])
            var values: [String: String] = [:]
            for name in order { values[name] = String(describing: model.jsonModel.value(forProperty: name)) }
            let listed = names.map { values[$0]! }
            if let expected { #expect(listed == expected) } else { expected = listed }
        }
    }
}

@Suite("Model creation paths")
struct ModelCreationPathTests {
    /// A nested model's entry has the model's own class as its type, so a read of it takes the
    /// fast path; the protocol's default gave `CacheBox<JSONModel>` in optimized builds.
    @Test func nestedModelEntriesHaveTheirOwnClass() throws {
        let property = try #require(PolyDrawing.modelMetadata.property(named: "main"))
        #expect(property.entryType == CacheBox<PolyShape>.self)
        let optional = try #require(PlainScalars.modelMetadata.property(named: "maybeShape"))
        #expect(optional.entryType == CacheBox<PolyShape?>.self)
    }

    /// Metadata found without the lock is the registry's own, for every class, however their
    /// places in the lock-free table collide.
    @Test func metadataIsTheSameInstanceEveryTime() {
        let types: [JSONModel.Type] = [
            PlainScalars.self, NameLengths.self, KeyedMembers.self, PolyShape.self, PolyCircle.self, PolyRing.self,
            PolySquare.self, PolyDrawing.self, InlineMix.self, TestUser.self,
        ]
        for _ in 0..<3 {
            for type in types {
                let metadata = ModelRegistry.shared.metadata(for: type)
                #expect(metadata === type.modelMetadata)
                #expect(metadata.modelType == type)
            }
        }
        let registry = ModelRegistry()
        #expect(registry.metadata(for: PlainScalars.self) === registry.metadata(for: PlainScalars.self))
    }
}
