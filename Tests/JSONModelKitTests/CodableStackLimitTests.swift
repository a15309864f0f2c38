import Foundation
import Testing

@testable import JSONModelKit
import JSONModelKitCore

/// A recursive Codable class with many fields: each level's `init(from:)` frame is large in
/// an unoptimized build.
private final class WideNode: Decodable, Sendable {
    let child: WideNode?
    let f01: Int?, f02: Int?, f03: Int?, f04: Int?, f05: Int?, f06: Int?, f07: Int?, f08: Int?, f09: Int?, f10: Int?
    let f11: String?, f12: String?, f13: String?, f14: String?, f15: String?, f16: String?, f17: String?
    let f18: String?, f19: String?, f20: String?
    let f21: Double?, f22: Double?, f23: Double?, f24: Double?, f25: Double?, f26: Double?, f27: Double?
    let f28: Double?, f29: Double?, f30: Double?
}

/// A Codable value nested below the decoder's depth limit, but deeper than the thread's stack
/// holds with the type's own frames, throws a `DecodingError` rather than overflowing.
@Suite("Codable stack limit")
struct CodableStackLimitTests {
    static func nested(_ levels: Int) -> JSONValue {
        var value: JSONValue = .object(["f01": .number(JSONNumber(1))])
        for _ in 0..<levels { value = .object(["child": value, "f11": .string("x")]) }
        return value
    }

    @Test func deepWideValueOnASmallStackThrows() throws {
        let json = Self.nested(190)
        let (outcome, _) = measuringStackUsage(stackSize: 512 << 10) { () -> String in
            do {
                _ = try JSONInputDecoder.decode(WideNode.self, from: .value(json))
                return "decoded"
            } catch let error as DecodingError {
                guard case .dataCorrupted(let context) = error else { return "other: \(error)" }
                return context.debugDescription
            } catch {
                return "other: \(error)"
            }
        }
        #expect(outcome.contains("stack"), "\(outcome)")
    }

    @Test func shallowWideValueDecodesOnASmallStack() throws {
        let json = Self.nested(20)
        let (depth, _) = measuringStackUsage(stackSize: 512 << 10) { () -> Int in
            guard var node = try? JSONInputDecoder.decode(WideNode.self, from: .value(json)) else { return -1 }
            var depth = 0
            while let child = node.child {
                node = child
                depth += 1
            }
            return depth
        }
        #expect(depth == 20)
    }
}
