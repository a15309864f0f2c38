import Foundation
import Testing
@testable import JSONModelKit

/// Red-team item 13: values JSON cannot hold (NaN, infinities, dates outside what the format
/// writes) make `set(_:forProperty:)` throw and the member syntax stop with a clear message;
/// nothing is ever written as a silent `null`.
@Suite("Unwritable values")
struct UnwritableValueTests {
    final class Measures: JSONModel, DynamicMembers, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.ratio(Double.self)
            p.maybe(Double?.self)
            p.small(Float.self)
            p.exact(Decimal.self)
            p.series([Double].self)
            p.named([String: Float?].self)
            p.when(Date?.self)
            p.count(Int.self)
        }
    }

    @Test(arguments: ["ratio", "maybe", "series", "named", "count"])
    func nonFiniteDoublesThrow(property: String) throws {
        let model = try Measures(json: #"{"ratio": 1.5}"#, options: .mutable)
        for bad in [Double.nan, .infinity, -.infinity, .signalingNaN] {
            let value: Any = switch property {
            case "series": [1, bad]
            case "named": ["a": Float(bad)]
            default: bad
            }
            #expect(throws: JSONModelError.self, "\(property) \(bad)") {
                try model.jsonModel.set(value, forProperty: property)
            }
        }
        #expect(model.jsonModel.json() == ["ratio": 1.5])
        #expect(!model.jsonModel.hasMutations)
    }

    @Test func theErrorSaysWhatJSONCannotHold() throws {
        let model = try Measures(json: "{}", options: .mutable)
        #expect(throws: JSONModelError.unwritable(model: "Measures", property: "ratio", reason: "JSON has no number for nan")) {
            try model.jsonModel.set(Double.nan, forProperty: "ratio")
        }
        #expect(throws: JSONModelError.unwritable(model: "Measures", property: "small", reason: "JSON has no number for -inf")) {
            try model.jsonModel.set(-Float.infinity, forProperty: "small")
        }
        #expect(throws: JSONModelError.unwritable(model: "Measures", property: "exact", reason: "JSON has no number for NaN")) {
            try model.jsonModel.set(Decimal.nan, forProperty: "exact")
        }
        #expect(throws: JSONModelError.unwritable(
            model: "Measures", property: "series", reason: "[1]: JSON has no number for inf")) {
            try model.jsonModel.set([0, Double.infinity], forProperty: "series")
        }
        #expect(throws: JSONModelError.unwritable(
            model: "Measures", property: "when",
            reason: "the date nan seconds since 1970 is outside what iso8601 writes (years 0000 to 9999)")) {
            try model.jsonModel.set(Date(timeIntervalSince1970: .nan), forProperty: "when")
        }
        #expect(model.jsonModel.json() == [:])
    }

    /// A value of another type is written when it converts exactly: a number that the
    /// property's type would round is refused, never stored as a nearby number.
    @Test func numbersThatWouldBeRoundedAreRefused() throws {
        let model = try Measures(json: #"{"ratio": 1.5}"#, options: .mutable)
        let refused: [(Any, String)] = [
            (9_007_199_254_740_993, "ratio"), (Int64.max, "ratio"), (16_777_217, "small"), (UInt64.max, "maybe"),
        ]
        for (value, property) in refused {
            #expect(throws: JSONModelError.self, "\(value) into \(property)") {
                try model.jsonModel.set(value, forProperty: property)
            }
        }
        #expect(model.jsonModel.json() == ["ratio": 1.5])
        try model.jsonModel.set(9_007_199_254_740_992, forProperty: "ratio")
        try model.jsonModel.set(16_777_216, forProperty: "small")
        try model.jsonModel.set(3, forProperty: "exact")
        try model.jsonModel.set(0.25, forProperty: "exact")
        #expect(model.ratio as Double == 9_007_199_254_740_992 && model.small as Float == 16_777_216)
        #expect(model.exact as Decimal == Decimal(string: "0.25"))
    }

    @Test func finiteExtremesStillWrite() throws {
        let model = try Measures(json: "{}", options: .mutable)
        model.ratio = Double.greatestFiniteMagnitude
        model.small = -Float.greatestFiniteMagnitude
        model.maybe = nil as Double?
        model.series = [0, -0.0, .leastNonzeroMagnitude]
        model.when = Date(timeIntervalSince1970: 0)
        #expect(model.ratio as Double == .greatestFiniteMagnitude)
        #expect(model.jsonModel.json()["when"] == "1970-01-01T00:00:00Z")
        #expect(model.jsonModel.json()["series"]?.arrayValue?.count == 3)
    }

    // Exit tests run child processes, which Swift Testing offers on macOS, Linux and Windows only.
    #if os(macOS) || os(Linux) || os(Windows)
    @Test func memberSyntaxStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = try Measures(json: "{}", options: .mutable)
            model.ratio = Double.nan
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("cannot set 'ratio' on Measures: JSON has no number for nan"), "\(text)")
    }

    @Test func aNaNDateStopsTheMemberSyntaxInsteadOfTrappingInTheWriter() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = try Measures(json: "{}", options: .mutable)
            model.when = Date(timeIntervalSince1970: .nan)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("cannot set 'when' on Measures"), "\(text)")
    }
    #endif

    @Test func schemaModelsThrowToo() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"""
            {"models": [{"name": "Reading", "properties": [
              {"name": "amount", "type": "Double"}, {"name": "at", "type": "Date?", "dateFormat": "millisecondsSince1970"}]}]}
            """#))
        let reading = try registry.makeModel(named: "Reading", json: [:] as JSONValue, options: .mutable)
        #expect(throws: JSONModelError.self) { try reading.jsonModel.set(Double.infinity, forProperty: "amount") }
        #expect(throws: JSONModelError.self) { try reading.jsonModel.set(Date(timeIntervalSince1970: 1e15), forProperty: "at") }
        try reading.jsonModel.set(Date(timeIntervalSince1970: 1), forProperty: "at")
        #expect(reading.jsonModel.json() == ["at": 1000])
    }
}
