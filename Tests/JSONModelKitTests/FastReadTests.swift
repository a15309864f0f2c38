import Testing
@testable import JSONModelKit

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
            #expect([short, fifteen, sixteen] == [1, 2, 3])
            #expect(label == "x")
            #expect(model.value(forProperty: "naïveCafé") as? Int == 4)
        }
        #expect(model.cachedPropertyCount == 5)
    }

    @Test func namesBuiltAtRunTimeFindTheSameProperties() throws {
        let model = try NameLengths(json: json)
        let first: Int = model.short  // caches through the literal
        let built = String(["s", "h", "o", "r", "t"])
        let long = String(repeating: "sixteenBytesLong", count: 1)
        #expect(model.value(forProperty: built) as? Int == first)
        #expect(model.value(forProperty: long) as? Int == 3)
        #expect(model.value(forProperty: "shor") == nil)
        #expect(model.value(forProperty: "shortt") == nil)
        #expect(model.value(forProperty: "") == nil)
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
        #expect(NameLengths.modelMetadata.emptySlots.filledCount == 0)
        let frozen = model.copy()
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
    ]

    /// The immutable model takes the scalar first read where it can; the mutable one always takes
    /// the general path. Both must give the same values and the same diagnostics.
    @Test(arguments: values)
    func sameValuesAndDiagnosticsAsTheGeneralPath(_ value: String) throws {
        let keys = ["int", "int8", "uint16", "int64", "uint64", "double", "bool", "string"]
        let json = "{" + keys.map { "\"\($0)\": \(value)" }.joined(separator: ", ") + "}"
        let fast = try PlainScalars(json: json)
        let general = try PlainScalars(json: json, options: .mutable)
        for name in fast.propertyNames {
            let lhs = fast.jsonValue(forProperty: name)
            let rhs = general.jsonValue(forProperty: name)
            #expect(lhs == rhs, "\(name) from \(value)")
            #expect(String(describing: fast.value(forProperty: name)) == String(describing: general.value(forProperty: name)))
        }
        #expect(fast.diagnostics.map(\.description) == general.diagnostics.map(\.description), "\(value)")
    }

    @Test func missingKeysAndNullTakeTheGeneralPath() throws {
        let model = try PlainScalars(json: #"{"int": null}"#)
        let int: Int = model.int
        let maybe: Int? = model.maybeInt
        let string: String = model.string
        #expect(int == 0)
        #expect(maybe == nil)
        #expect(string == "")
    }

    @Test func aConverterRegisteredForTheTypeTurnsTheShortcutOff() throws {
        // Declarations with options that bring converters never get the shortcut.
        let metadata = PlainScalars.modelMetadata
        #expect(metadata.properties.allSatisfy { $0.scalarFirstRead != nil })
        let withOptions = TestUser.modelMetadata
        #expect(withOptions.property(named: "city")?.scalarFirstRead == nil)  // a nested path
        #expect(withOptions.property(named: "id")?.scalarFirstRead == nil)  // three alternative keys
    }
}
