import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation

/// The line and column an error names, counted only when an error asks for them: an element
/// scanned in place is passed over by the count until a later position is wanted, so these tests
/// put the faults after elements that span lines and hold non-ASCII text, and hold every way of
/// reading (one buffer, chunks cut anywhere, a file) to the position counted naively.
@Suite("Stream positions")
struct StreamPositionTests {
    /// The line and column of byte `offset` of `bytes`, counted one byte at a time: lines end at
    /// line feeds, columns count Unicode scalars.
    static func naivePosition(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// Good elements, some on several lines, with two- and three-byte characters; `count` of them.
    static func goodElements(_ count: Int) -> [String] {
        (0..<count).map { id in
            switch id % 4 {
            case 0: "{\"id\": \(id), \"name\": \"é✓\(id)\"}"
            case 1: "{\n    \"id\": \(id),\n    \"name\": \"\(String(repeating: "ü", count: id % 23))\"\n  }"
            case 2: "{\"id\": \(id), \"name\": \"\(String(repeating: "x", count: 3 * id % 40))\", \"place\": {\"city\": \"Zürich\"}}"
            default: "{\"id\": \(id),\n \"name\": null}"
            }
        }
    }

    /// The faults, each an element (or what stands for one) and the error it gives.
    static let faults: [(text: String, kind: JSONStreamError.Kind?)] = [
        ("[1]", .notAnObject(model: "StreamEvent", found: .array)),  // scanned in place
        ("\"a string\"", .notAnObject(model: "StreamEvent", found: .string)),  // gathered
        ("{\"id\": \"x\"}", nil),  // scanned in place, fails validation
    ]

    /// The ids `reader` reads, and the error that stops it.
    static func readAll(_ reader: ModelStreamReader<StreamEvent>) -> (ids: [Int], error: JSONStreamError?) {
        var ids: [Int] = []
        do {
            while let event = try reader.read() { ids.append(event.id) }
        } catch {
            return (ids, error)
        }
        return (ids, nil)
    }

    @Test func faultsAfterElementsThatSpanLinesNameTheirElementsStart() async throws {
        let options = ModelOptions(validating: true)
        for good in [0, 1, 2, 5, 13] {
            for (fault, kind) in Self.faults {
                for separator in [",", ",\n  ", " ,\n\n"] {
                    let elements = Self.goodElements(good) + [fault] + Self.goodElements(2)
                    let text = "[\n  " + elements.joined(separator: separator) + "\n]\n"
                    let bytes = Array(text.utf8)
                    let offset = try #require(Self.offset(of: fault, in: bytes))
                    let expected = Self.naivePosition(bytes, offset)
                    let place = "\(good) before \(fault), separated by \(separator.debugDescription)"

                    func check(_ outcome: (ids: [Int], error: JSONStreamError?), _ how: String) {
                        #expect(outcome.ids == Array(0..<good), "\(place), \(how)")
                        guard let error = outcome.error else {
                            Issue.record("no error: \(place), \(how)")
                            return
                        }
                        if let kind {
                            #expect(error.kind == kind, "\(place), \(how)")
                        } else if case .validationFailed = error.kind {
                        } else {
                            Issue.record("expected a validation failure, got \(error.kind): \(place), \(how)")
                        }
                        #expect(error.element == good && error.offset == offset, "\(place), \(how)")
                        #expect(error.line == expected.line && error.column == expected.column,
                                "\(place), \(how): \(error.line):\(error.column), expected \(expected.line):\(expected.column)")
                    }

                    check(Self.readAll(ModelStreamReader<StreamEvent>(bytes: bytes, options: options)), "in memory")

                    // Cut into chunks: each cut before the fault, inside it, and after it.
                    for cut in [offset / 2, offset - 1, offset, offset + 2, bytes.count - 3] where cut > 0 && cut < bytes.count {
                        var outcome: (ids: [Int], error: JSONStreamError?) = ([], nil)
                        do {
                            for try await event in StreamEvent.stream(from: SlowBytes(bytes: bytes, breaks: [cut]), options: options) {
                                outcome.ids.append(event.id)
                            }
                        } catch let error as JSONStreamError {
                            outcome.error = error
                        }
                        check(outcome, "async, cut at \(cut)")
                    }

                    let url = FileManager.default.temporaryDirectory.appendingPathComponent("positions-\(UUID()).json")
                    defer { try? FileManager.default.removeItem(at: url) }
                    try Data(bytes).write(to: url)
                    check(Self.readAll(try ModelStreamReader<StreamEvent>(contentsOf: url, options: options)), "from a file")
                }
            }
        }
    }

    /// A syntax error inside an element scanned in place, and garbage between elements, after
    /// elements that span lines: the positions of the faulty bytes themselves.
    @Test func syntaxErrorsAfterElementsThatSpanLines() throws {
        for good in [1, 4, 9] {
            // The second fault follows a good element, which is read.
            for (fault, mark, read) in [("{\"id\": 7, \"name\": tru}", "tru", []), ("{\"id\": 7} ?", "?", [7])] {
                let text = "[\n  " + (Self.goodElements(good) + [fault]).joined(separator: ",\n  ") + "\n]"
                let bytes = Array(text.utf8)
                let start = try #require(Self.offset(of: fault, in: bytes))
                let markOffset = start + Array(fault.utf8).firstRange(of: Array(mark.utf8))!.lowerBound
                let expected = Self.naivePosition(bytes, markOffset)
                let outcome = Self.readAll(ModelStreamReader<StreamEvent>(bytes: bytes))
                #expect(outcome.ids == Array(0..<good) + read)
                let error = try #require(outcome.error)
                #expect(error.offset == markOffset, "\(good) before \(fault)")
                #expect(error.line == expected.line && error.column == expected.column,
                        "\(good) before \(fault): \(error.line):\(error.column), expected \(expected.line):\(expected.column)")
            }
        }
    }

    /// An input that ends inside the array, after elements that span lines: the error names the
    /// end, counted over those elements only then when the input is in memory.
    @Test func anEndTooSoonNamesTheEndOfTheInput() async throws {
        for good in [0, 1, 3, 8] {
            // A comma needs an element before it.
            for tail in ["", ",", ",\n ", "\n  ", ", {\"id\": 9,\n \"name\": \"é"] where good > 0 || !tail.hasPrefix(",") {
                let text = "[\n  " + Self.goodElements(good).joined(separator: ",\n  ") + tail
                let bytes = Array(text.utf8)
                let expected = Self.naivePosition(bytes, bytes.count)
                let place = "\(good) elements, then \(tail.debugDescription)"
                var outcomes = [("in memory", Self.readAll(ModelStreamReader<StreamEvent>(bytes: bytes)))]
                for cut in [1, bytes.count / 2, bytes.count - 1] where cut > 0 && cut < bytes.count {
                    var outcome: (ids: [Int], error: JSONStreamError?) = ([], nil)
                    do {
                        for try await event in StreamEvent.stream(from: SlowBytes(bytes: bytes, breaks: [cut])) {
                            outcome.ids.append(event.id)
                        }
                    } catch let error as JSONStreamError {
                        outcome.error = error
                    }
                    outcomes.append(("async, cut at \(cut)", outcome))
                }
                for (how, outcome) in outcomes {
                    let expectedIDs = Array(0..<good)
                    #expect(outcome.ids == expectedIDs, "\(place), \(how)")
                    let error = try #require(outcome.error, "\(place), \(how)")
                    #expect(error.kind == .unexpectedEnd || error.kind == .invalidJSON(.unexpectedEnd), "\(place), \(how): \(error)")
                    if error.kind == .unexpectedEnd {
                        #expect(error.offset == bytes.count && error.line == expected.line && error.column == expected.column,
                                "\(place), \(how): \(error.line):\(error.column) @\(error.offset), expected \(expected.line):\(expected.column)")
                    }
                }
            }
        }
    }

    /// The offset of `fault` in `bytes`: the good elements never hold a fault's text, so its
    /// first occurrence is the fault.
    static func offset(of fault: String, in bytes: [UInt8]) -> Int? {
        bytes.firstRange(of: Array(fault.utf8))?.lowerBound
    }
}
