import Foundation
import Testing
@testable import JSONModelKit

/// What descriptions show of values that are not plain strings, with limits at their extremes,
/// and what describing leaves behind.
@Suite("Description safety")
struct DescriptionSafetyTests {
    /// A string enum keeps a value no case names as the input spelled it; its text is the input's.
    @Test func anUnknownStringEnumValueCannotStartALineOfItsOwn() throws {
        let ticket = try Ticket(json: #"{"status": "x\n  legacy_id: 7"}"#)
        let status: TicketStatus = ticket.status
        #expect(status.value.string == "x\n  legacy_id: 7")
        #expect(!ticket.debugDescription.contains("\n"), "\(ticket.debugDescription)")
        #expect(ticket.debugDescription.contains(#"x\n  legacy_id: 7"#), "\(ticket.debugDescription)")
        let lines = ticket.jsonModel.fullDescription.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("  legacy_id") }, "\(lines)")
    }

    /// JSON text escapes only what JSON must; the separators and C1 controls it leaves would
    /// break a line in many log viewers.
    @Test func jsonValuesAndUnknownValuesStayOnOneLine() throws {
        let user = try DescribedUser(json: #"{"extra": "a\u2028b\u0085c", "legacy": "x\u2029y"}"#)
        #expect(!TextEscapes.breaksLines(user.debugDescription), "\(user.debugDescription)")
        let lines = user.jsonModel.fullDescription.split(separator: "\n").map(String.init)
        for line in lines { #expect(!TextEscapes.breaksLines(line), "\(line)") }
        #expect(lines.contains(#"  extra: "a\u{2028}b\u{85}c""#), "\(lines)")
        #expect(lines.contains(#"  legacy: "x\u{2029}y""#), "\(lines)")
    }

    @Test func aValueOfTheUsersOwnTypeStaysOnOneLine() {
        let text = DescriptionText.cut("first\nsecond\u{2028}third", limit: 80)
        #expect(text == #"first\nsecond\u{2028}third"#)
        #expect(DescriptionText.cut("a\nbcdef", limit: 3) == #"a\nb…"#)
    }

    /// `.max` asks for no cut; multiplied into a count of scalars it must not wrap.
    @Test func theLargestStringLimitsCutNothing() throws {
        let tag = try DescribedTag(json: #"{"label": "solo"}"#)
        let limits = DescriptionLimits(maxStringLength: .max, maxFullStringLength: .max)
        #expect(tag.jsonModel.description(limits: limits) == #"DescribedTag(label: "solo")"#)
        #expect(tag.jsonModel.fullDescription(limits: limits) == #"DescribedTag(label: "solo")"#)
        for limit in [Int.max, Int.max / 8 + 1, 1 << 61] {
            #expect(DescriptionText.scalarLimit(forCharacters: limit) == .max)
            #expect(DescriptionText.quoted("solo", limit: limit) == #""solo""#)
            #expect(DescriptionText.cut("solo", limit: limit) == "solo")
        }
        #expect(DescriptionText.scalarLimit(forCharacters: 80) == 640)
    }

    /// Read as `ModelArray<JSONModel>` to stay lazy, a `[PolyShape]` still describes each element
    /// as the class a read gives it.
    @Test func aLazyViewDescribesItsElementsAsTheirClasses() throws {
        let drawing = try PolyDrawing(
            json: #"{"shapes": [{"type": "square", "side": 2}, {"type": "circle", "radius": 1}]}"#)
        let shapes: ModelArray<JSONModel> = drawing.shapes
        let full = shapes.fullDescription
        #expect(full.contains("[0]: PolySquare("), "\(full)")
        #expect(full.contains("side: 2"), "\(full)")
        #expect(full.contains("[1]: PolyCircle("), "\(full)")
        #expect(!shapes.isElementBuilt(at: 0) && !shapes.isElementBuilt(at: 1), "describing builds nothing")
        #expect(className(shapes[0]) == "PolySquare")
    }

    /// An immutable model keeps its rarely used state in a table shared by every model, behind
    /// one lock; describing one must not make it.
    @Test func describingMakesNoStateForAnImmutableModel() throws {
        let user = try DescribedUser(json: #"{"first_name": "Ann", "address": {"city": "Rome"}, "legacy": 1}"#)
        #expect(!user.state.isMade)
        _ = user.jsonModel.fullDescription
        _ = user.debugDescription
        #expect(!user.state.isMade)
        let address: DescribedAddress = user.address
        _ = user.jsonModel.fullDescription
        #expect(!address.state.isMade)
    }
}
