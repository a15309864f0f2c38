import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitFoundation
import JSONModelKitTestSupport

/// `JSONValue`'s Foundation objects (`anyValue`, from JSONModelKitFoundation) and back: the
/// tests of `JSONValueTests` that read `anyValue`, which the core's test target cannot import.
@Suite("JSONValue as Foundation objects")
struct JSONValueNSObjectsTests {
    @Test func anyRoundTripThroughJSONSerialization() throws {
        let value: JSONValue = [
            "flags": [true, false], "ints": [0, 1, -1, .number(JSONNumber(Int64.max)), .number(JSONNumber(UInt64.max))],
            "doubles": [0.5, -2.25, 1e-7], "text": "ü\n", "none": nil, "nested": ["a": [["b": []]]],
        ]
        let data = try JSONSerialization.data(withJSONObject: value.anyValue)
        let back = try JSONValue(any: try JSONSerialization.jsonObject(with: data))
        #expect(back == value)
        #expect(back["flags"]?[0] == .bool(true))
        #expect(value.anyValue is [String: Any])
        #expect(JSONValue.null.anyValue is NSNull)
        #expect(JSONValue(5).anyValue as? Int == 5)
        #expect(JSONValue(UInt64.max).anyValue as? UInt64 == UInt64.max)
        #expect(JSONValue(2.5).anyValue as? Double == 2.5)
        #expect(JSONValue.bool(true).anyValue as? Bool == true)
        #expect(JSONValue.number(JSONNumber(text: "1e2")!).anyValue as? Int == 100)
    }

    @Test func deepAnyConversionOnASmallStack() {
        /// Holds non-Sendable Foundation values while they move between threads.
        final class Box: @unchecked Sendable {
            var any: Any = 0
            var back: Any = 0
        }
        let depth = 100_000
        let box = Box()
        // Nested Swift arrays are built and freed recursively by Swift itself,
        // so that happens on a big stack; only the conversion runs on a small one.
        let bigStack = 512 * 1024 * 1024
        _ = onSmallStackThread(stackSize: bigStack) { () -> Bool in
            var any: Any = 1
            for _ in 0..<depth { any = [any] }
            box.any = any
            return true
        }
        let ok = onSmallStackThread { () -> Bool in
            guard let value = try? JSONValue(any: box.any) else { return false }
            box.back = value.anyValue
            let isRight = value.jsonBytes().count == 2 * depth + 1
            return isRight
        }
        let levels = onSmallStackThread(stackSize: bigStack) { () -> Int in
            var levels = 0
            var cursor: Any = box.back
            while let array = cursor as? [Any] {
                levels += 1
                cursor = array[0]
            }
            box.any = 0
            box.back = 0
            return levels
        }
        #expect(ok)
        #expect(levels == depth)
    }
}
