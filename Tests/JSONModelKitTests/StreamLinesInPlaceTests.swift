import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation

/// Makes models of `bytes` given in the chunks that `cuts` (ascending offsets) make, as the
/// readers do: the ids read, then the error.
func modelsInChunks(_ bytes: [UInt8], cuts: [Int], options: ModelOptions) -> StreamOutcome {
    var outcome = StreamOutcome()
    do throws(JSONStreamError) {
        try forEachElement(bytes, cuts: cuts, options: options.framing) { (framer, element, chunk) throws(JSONStreamError) in
            let event = try framer.model(StreamEvent.self, of: element, in: chunk, options: options)
            outcome.ids.append(event.id)
        }
    } catch {
        outcome.error = StreamOutcome.of(error)
    }
    return outcome
}

/// JSON Lines whose lines end in the chunk are parsed where they lie; the others are gathered
/// and parsed. Both give the same models and the same errors, at the same places.
@Suite("Stream, JSON Lines in place")
struct StreamLinesInPlaceTests {
    static let inputs: [(String, ModelOptions)] = {
        let lines = ModelOptions(streamOptions: JSONStreamOptions(format: .lines))
        let validating = ModelOptions(validating: true, streamOptions: JSONStreamOptions(format: .lines))
        var commented = lines
        commented.parseOptions = JSONParseOptions(allowsComments: true)
        let limited = ModelOptions(streamOptions: JSONStreamOptions(format: .lines, maxElementSize: 12))
        return [
            ("{\"id\": 1}   \r\n{\"id\": 2}\t\n  {\"id\": 3}\n", lines),
            ("{\"id\": 1}\n{\"id\": 2} x\n{\"id\": 3}\n", lines),
            ("{\"id\": 1}\n{\"id\": 2\n{\"id\": 3}\n", lines),
            ("{\"id\":\n 1}\n", lines),
            ("{\"id\": 1}\n[1]\n", lines),
            ("{\"id\": 1}\n{\"id\": \"x\"}\n", validating),
            ("{\"id\": 1}}\n", lines),
            ("{\"id\": 1} // one\n{\"id\": 2 /* two */}\n{\"id\": 3}/**/\n", commented),
            ("{\"id\": 1}\n{\"id\":    2}\r\n{\"id\":     3}\n", limited),
            ("  {\"id\": 1}\n\n\n{\"id\": 2}", lines),
            ("{\"id\": 1, \"name\": \"é✓\"}\n  {\"id\": tru}\n", lines),
            ("{\"id\": 1, \"place\": {\"city\": \"Oslo\"}}\r\n{\"id\": 2, \"tags\": [[], {}]} \n", lines),
        ]
    }()

    @Test func inPlaceAndGatheredLinesGiveTheSame() {
        for (text, options) in Self.inputs {
            let bytes = Array(text.utf8)
            // One chunk: every line that ends in it is parsed in place.
            let whole = modelsInChunks(bytes, cuts: [], options: options)
            // A byte a time: every line is gathered.
            let gathered = modelsInChunks(bytes, cuts: Array(1..<bytes.count), options: options)
            #expect(whole == gathered, "\(text.debugDescription)")
            for cut in 1..<bytes.count {
                #expect(modelsInChunks(bytes, cuts: [cut], options: options) == gathered, "\(text.debugDescription), cut at \(cut)")
            }
            // The reader over bytes in memory agrees.
            let reader = ModelStreamReader<StreamEvent>(bytes: bytes, options: options)
            var outcome = StreamOutcome()
            do {
                while let event = try reader.read() { outcome.ids.append(event.id) }
            } catch {
                outcome.error = StreamOutcome.of(error)
            }
            #expect(outcome == gathered, "\(text.debugDescription), ModelStreamReader")
        }
    }

    /// What the inputs give, so that agreeing is not all the test holds.
    @Test func theLinesGiveWhatTheySay() {
        let outcomes = Self.inputs.map { text, options in modelsInChunks(Array(text.utf8), cuts: [], options: options) }
        #expect(outcomes[0] == StreamOutcome(ids: [1, 2, 3]))
        #expect(outcomes[1].ids == [1] && outcomes[1].error?.hasPrefix("invalidJSON(JSONModelKitCore.JSONParseError.Kind.trailingContent) #1 2:") == true)
        #expect(outcomes[2].ids == [1] && outcomes[2].error?.contains("unexpectedEnd) #1 2:") == true)
        #expect(outcomes[3].ids == [] && outcomes[3].error?.contains("unexpectedEnd) #0 1:") == true)
        #expect(outcomes[4].ids == [1] && outcomes[4].error?.hasPrefix("notAnObject") == true)
        #expect(outcomes[5].ids == [1] && outcomes[5].error?.hasPrefix("validationFailed") == true)
        #expect(outcomes[6].ids == [] && outcomes[6].error?.contains("trailingContent) #0 1:") == true)
        #expect(outcomes[7] == StreamOutcome(ids: [1, 2, 3]))
        // The second line is at the limit but for its carriage return; the third is over it.
        #expect(outcomes[8].ids == [1, 2] && outcomes[8].error?.hasPrefix("elementTooLarge(limit: 12) #2 3:1 @24") == true)
        #expect(outcomes[9] == StreamOutcome(ids: [1, 2]))
        #expect(outcomes[10].ids == [1] && outcomes[10].error?.contains("invalidLiteral) #1 2:10 @36") == true)
        #expect(outcomes[11] == StreamOutcome(ids: [1, 2]))
    }
}
