import Foundation
import JSONModelKit

/// Compares accept/reject with `JSONSerialization`.
///
/// A disagreement is allowed only when it falls in a documented class (listed in Tools/fuzz/README.md);
/// any other one stops the fuzzer with the input, as a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDifferential(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    // Foundation traps on input nested past 512 levels; keep such input away from it.
    guard roughNestingDepth(data) < 500 else { return 0 }
    let ours: Result<JSONDocument, JSONParseError>
    do throws(JSONParseError) {
        ours = .success(try JSONDocument(data: data))
    } catch {
        ours = .failure(error)
    }
    let theirs = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    switch (ours, theirs) {
    case (.success, true), (.failure, false):
        return 0
    case (.failure(let error), true):
        // Foundation guesses UTF-16 and UTF-32 from NUL bytes and byte order marks; JSON
        // exchanged between systems must be UTF-8 (RFC 8259, section 8.1), which is all we read.
        if data.prefix(4).contains(0) || data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return 0 }
        // Foundation skips a UTF-8 byte order mark; we reject it (RFC 8259, section 8.1: senders
        // must not add one, parsers may ignore it). Found by a smoke run of this target.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return 0 }
        // We are stricter than RFC-lenient Foundation in these ways.
        precondition(Difference.foundationAccepts.contains(error.kind.name), "Foundation accepts, we reject with \(error.kind): \(Array(data.prefix(200)))")
    case (.success(let document), false):
        // Foundation refuses numbers it cannot hold in a Double or Decimal, and byte order marks.
        precondition(hasUnrepresentableNumber(document.root) || data.starts(with: [0xEF, 0xBB, 0xBF]),
                     "we accept, Foundation rejects: \(Array(data.prefix(200)))")
    }
    return 0
}

enum Difference {
    /// Our error kinds for which Foundation is known to accept the input anyway.
    static let foundationAccepts: Set<String> = ["trailingComma", "invalidUTF8", "loneSurrogate", "trailingContent", "invalidNumber", "controlCharacterInString", "emptyInput"]
}

extension JSONParseError.Kind {
    var name: String { String(describing: self).prefix { $0 != "(" }.description }
}

/// Whether a number in the value overflows `Double` (Foundation rejects those).
func hasUnrepresentableNumber(_ root: JSONNode) -> Bool {
    var stack = [root]
    while let node = stack.popLast() {
        if let double = node.numberValue?.doubleValue, !double.isFinite { return true }
        if let text = node.numberValue?.description, text.count > 30 { return true }
        stack.append(contentsOf: node.elements)
        stack.append(contentsOf: node.members.map(\.value))
    }
    return false
}

/// The deepest bracket nesting outside strings, without validating anything.
func roughNestingDepth(_ data: Data) -> Int {
    var depth = 0, deepest = 0, inString = false, escaped = false
    for byte in data {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        default: break
        }
    }
    return deepest
}
