import Foundation
import Testing
@testable import JSONModelKit

struct TicketStatus: JSONStringEnum {
    let value: InternedString
    init(_ value: InternedString) { self.value = value }
    static let open: TicketStatus = "open"
    static let closed: TicketStatus = "closed_after_long_review"
    static let knownValues: [TicketStatus] = [.open, .closed]
}

/// Two known values and the letters they share with other spellings.
struct TemperatureUnit: JSONStringEnum {
    let value: InternedString
    init(_ value: InternedString) { self.value = value }
    static let kelvin: TemperatureUnit = "K"
    static let cafe: TemperatureUnit = "caf\u{E9}"
    static let knownValues: [TemperatureUnit] = [.kelvin, .cafe]
}

final class Thermometer: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.unit(TemperatureUnit.self, default: .kelvin)
    }
}

enum Shape: String, Sendable { case circle, square }
enum Level: Int, Sendable { case low = 1, high = 2 }
enum Kind: String, Sendable, JSONUnknownCase { case alpha, beta, unknown }

final class Ticket: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.status(TicketStatus.self, default: .open)
        p.stage(String.self, enumValues: ["new", "in_progress_for_a_while", "done"])
        p.shape(Shape.self, default: .circle)
        p.level(Level.self, default: .low)
        p.kind(Kind.self)
        p.maybe(Shape?.self)
        p.maybeLevel(Level?.self)
    }
}

final class LevelOnly: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.level(Level.self, default: .low)
    }
}

final class NoDefaultEnum: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.shape(Shape.self)
    }
}

@Suite("Enums")
struct EnumTests {
    /// The Kelvin sign is not the letter K, nor a decomposed é the precomposed one: known values
    /// are matched by their bytes, and an unknown spelling is kept as it came, not swapped for
    /// the known value Swift's `String ==` takes it for.
    @Test func anUnknownSpellingIsKeptNotSwappedForAKnownValue() throws {
        _ = TemperatureUnit.knownValues
        for (json, scalars) in [(#"{"unit": "\u212A"}"#, [0x212A]), (#"{"unit": "cafe\u0301"}"#, [0x63, 0x61, 0x66, 0x65, 0x301])] {
            let model = try Thermometer(json: json, options: .mutable)
            let unit: TemperatureUnit = model.unit
            #expect(unit.rawValue.unicodeScalars.map(\.value) == scalars.map(UInt32.init))
            #expect(unit != .kelvin && unit != .cafe)
            #expect(model.jsonModel.diagnostics.count == 1)
            #expect(TemperatureUnit(rawValue: unit.rawValue).rawValue.unicodeScalars.map(\.value) == scalars.map(UInt32.init))
            model.unit = unit
            #expect(model.jsonModel.json()["unit"]?.stringValue?.unicodeScalars.map(\.value) == scalars.map(UInt32.init))
        }
        let known = try Thermometer(json: #"{"unit": "K"}"#)
        #expect((known.unit as TemperatureUnit) == .kelvin)
        #expect(known.jsonModel.diagnostics.isEmpty)
    }

    @Test func internedEnumsShareStorageAndCompareInO1() throws {
        let a = try Ticket(json: #"{"status": "closed_after_long_review"}"#)
        let b = try Ticket(json: #"{"status": "closed_after_long_review"}"#)
        let first: TicketStatus = a.status
        let second: TicketStatus = b.status
        #expect(first == .closed)
        #expect(first.value.storage === second.value.storage)
        #expect(first.value.storage === TicketStatus.closed.value.storage)
        #expect(Set([first, second, .open]).count == 2)
        #expect(a.jsonModel.diagnostics.isEmpty)
    }

    @Test func unknownInternedValuesAreKeptAndRoundTrip() throws {
        let ticket = try Ticket(json: #"{"status": "escalated", "x": 1}"#, options: .mutable)
        let status: TicketStatus = ticket.status
        #expect(status.rawValue == "escalated")
        #expect(status != .open && status != .closed)
        #expect(status == TicketStatus(rawValue: "escalated"))
        #expect(!status.value.isInterned)
        #expect(ticket.jsonModel.diagnostics.count == 1)
        #expect(ticket.jsonModel.json() == ["status": "escalated", "x": 1])
        ticket.status = TicketStatus.closed
        #expect(ticket.jsonModel.json()["status"] == "closed_after_long_review")
        #expect(try Ticket(json: "{}").status as TicketStatus == .open)
    }

    @Test func enumValuesGiveOneCanonicalString() throws {
        let a = try Ticket(json: #"{"stage": "in_progress_for_a_while"}"#)
        let b = try Ticket(json: #"{"stage": "in_progress_for_a_while"}"#)
        let first: String = a.stage
        let second: String = b.stage
        #expect(first == "in_progress_for_a_while")
        // The same storage: the identical-storage fast path of ==.
        #expect(unsafeBitCast(first, to: (UInt64, UInt64).self) == unsafeBitCast(second, to: (UInt64, UInt64).self))
        let odd = try Ticket(json: #"{"stage": "weird"}"#)
        #expect(odd.stage as String == "weird")
        #expect(odd.jsonModel.diagnostics.map(\.message) == ["\"weird\" is not one of the enumValues"])
    }

    @Test func requiredWithDefault() throws {
        #expect(try Ticket(json: #"{"shape": "square", "level": 2}"#).shape as Shape == .square)
        #expect(try Ticket(json: #"{"level": "2"}"#).level as Level == .high)
        let unknown = try Ticket(json: #"{"shape": "hexagon", "level": 9}"#)
        #expect(unknown.shape as Shape == .circle)
        #expect(unknown.level as Level == .low)
        #expect(unknown.jsonModel.diagnostics.count == 2)
        #expect(try Ticket(json: "{}").shape as Shape == .circle)
    }

    /// What reading an integer raw value records stands for the enum: a number that is not
    /// quite an integer is lossy, and a numeric string is a lenient match strict validation
    /// refuses, as for an `Int` property.
    @Test func anIntegerEnumKeepsItsIntegersDiagnostics() throws {
        let lossy = try LevelOnly(json: #"{"level": 1.6}"#)
        #expect(lossy.level as Level == .high)
        #expect(lossy.jsonModel.diagnostics.map(\.kind) == [.lossy])
        #expect(throws: (any Error).self) { try LevelOnly(json: #"{"level": 1.6}"#, options: .validating) }
        #expect(try LevelOnly(json: #"{"level": "2"}"#, options: .validating).level as Level == .high)
        #expect(throws: (any Error).self) { try LevelOnly(json: #"{"level": "2"}"#, options: .strict) }
        #expect(try LevelOnly(json: #"{"level": 2}"#, options: .strict).level as Level == .high)
        // A value that is no integer at all is one mismatch, for the enum.
        let text = try LevelOnly(json: #"{"level": "high"}"#)
        #expect(text.level as Level == .low)
        #expect(text.jsonModel.diagnostics.count == 1)
    }

    /// A value the enum does not know is reported whatever other code interned the same text:
    /// here another type's known value.
    @Test func aValueAnotherEnumKnowsIsUnknownToThisOne() throws {
        struct Payment: JSONStringEnum {
            let value: InternedString
            init(_ value: InternedString) { self.value = value }
            static let settled: Payment = "settled_by_card"
            static let knownValues: [Payment] = [.settled]
        }
        #expect(Payment.settled.value.isInterned)
        let ticket = try Ticket(json: #"{"status": "settled_by_card"}"#)
        #expect((ticket.status as TicketStatus).rawValue == "settled_by_card")
        #expect(ticket.jsonModel.diagnostics.map(\.kind) == [.invalidValue])
        // A known value written with escapes is known, and shares the known storage.
        let escaped = try Ticket(json: #"{"status": "op\u0065n"}"#)
        #expect((escaped.status as TicketStatus).value.storage === TicketStatus.open.value.storage)
        #expect(escaped.jsonModel.diagnostics.isEmpty)
    }

    @Test func requiredWithAnUnknownCaseNeverWrittenBack() throws {
        let ticket = try Ticket(json: #"{"kind": "gamma"}"#, options: .mutable)
        #expect(ticket.kind as Kind == .unknown)
        #expect(ticket.jsonModel.diagnostics.count == 1)
        #expect(try Ticket(json: "{}").kind as Kind == .unknown)
        #expect(ticket.jsonModel.json() == ["kind": "gamma"])  // an unread unknown value stays as it was
        ticket.kind = Kind.beta
        #expect(ticket.jsonModel.json() == ["kind": "beta"])
        ticket.kind = Kind.unknown
        #expect(ticket.jsonModel.json() == [:])
    }

    @Test func optionalIsNilWhenMissingOrUnknown() throws {
        #expect(try Ticket(json: #"{"maybe": "square"}"#).maybe as Shape? == .square)
        #expect(try Ticket(json: "{}").maybe as Shape? == nil)
        #expect(try Ticket(json: #"{"maybe": null}"#).maybe as Shape? == nil)
        let unknown = try Ticket(json: #"{"maybe": "cone", "maybeLevel": 5}"#, options: .mutable)
        #expect(unknown.maybe as Shape? == nil)
        #expect(unknown.maybeLevel as Level? == nil)
        unknown.maybeLevel = Level.high
        #expect(unknown.jsonModel.json()["maybeLevel"] == 2)
        unknown.maybe = nil as Shape?
        #expect(unknown.jsonModel.json()["maybe"] == nil)
    }

    @Test func requiredEnumWithoutDefaultIsADeclarationProblem() {
        #expect(throws: ModelDeclarationError.self) { try NoDefaultEnum.validateDeclarations() }
    }

    @Test func interningFromManyThreads() async {
        await withTaskGroup(of: InternedString.self) { group in
            for index in 0..<16 {
                group.addTask { InternedString("shared-value-\(index % 2)") }
            }
            var seen: [InternedString] = []
            for await value in group { seen.append(value) }
            #expect(Set(seen.map { ObjectIdentifier($0.storage) }).count == 2)
        }
    }
}
