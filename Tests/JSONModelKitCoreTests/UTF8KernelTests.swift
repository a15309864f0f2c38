import Foundation
import JSONModelKitUTF8
import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

/// The check of UTF-8 32 bytes at a time with AVX2 (the JSONModelKitUTF8 target), against the
/// byte-at-a-time reference of the scanner's tests (``BlockScanningTests``): it stops at a quote, backslash or control character
/// only when everything before is well-formed, and it never steps more than three bytes past the
/// start of an ill-formed sequence, whose error the scanner's next block then finds. The
/// scanner's own tests run through it wherever 32 bytes are left in the input.
@Suite("UTF-8 in blocks of 32 bytes")
struct UTF8KernelTests {
    /// Whether this processor has AVX2, as Linux reports it; nil where it cannot be told.
    static let hasAVX2: Bool? = {
        #if arch(x86_64)
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return info.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx2") }
        #else
        return false
        #endif
    }()

    /// What the kernel did from the start of `content`, which three bytes of text precede.
    static func skip(_ content: [UInt8]) -> (at: Int, stopped: Bool) {
        let buffer = Array("ab\"".utf8) + content
        return buffer.withUnsafeBufferPointer { bytes in
            let start = bytes.baseAddress! + 3
            var stopped = false
            let at = jmk_skip_valid_utf8(start, bytes.baseAddress! + bytes.count, &stopped)
            return (at - start, stopped)
        }
    }

    /// Checks the kernel's answer for `content` against the reference.
    static func expectAgreement(_ content: [UInt8], _ comment: @autoclosure () -> String) {
        var stop: Int?
        var error: Int?
        var index = 0
        while index < content.count {
            let byte = content[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                stop = index
                break
            }
            guard let length = byte < 0x80 ? 1 : BlockScanningTests.Reference.sequenceLength(content, at: index) else {
                error = index
                break
            }
            index += length
        }
        let (at, stopped) = skip(content)
        if stopped {
            #expect(error == nil && at == stop, "stopped at \(at), reference stop \(String(describing: stop)), error \(String(describing: error)): \(comment())")
        } else {
            let limit = min(stop ?? content.count, error.map { $0 + 3 } ?? content.count)
            #expect(at % 32 == 0 && at <= limit, "went to \(at), reference stop \(String(describing: stop)), error \(String(describing: error)): \(comment())")
        }
    }

    @Test(.enabled(if: hasAVX2 == true, "needs an x86-64 processor with AVX2, as /proc/cpuinfo reports it"))
    func wellFormedTextIsSteppedOverToItsClosingQuote() {
        for character in ["a", "é", "€", "😀", "日本語のテキスト"] {
            let content = Array(String(repeating: character, count: 40).utf8) + Array("\", 1]".utf8) + Array(repeating: 0x20, count: 40)
            let (at, stopped) = Self.skip(content)
            #expect(stopped && content[at] == UInt8(ascii: "\""), "\(character): \(at)")
            #expect(at == content.count - 45, "\(character): \(at)")
        }
    }

    /// Every lead byte and every second byte, followed by continuation bytes, at the lanes
    /// around a block's end, in text of one, two and three bytes a character.
    @Test func everyPairAtTheEndOfABlockAgreesWithTheReference() {
        for fill in ["a", "é", "あ"] {
            let unit = Array(fill.utf8)
            for lead in UInt8(0x70)...0xFF {
                for second in UInt8(0)...0xFF {
                    for offset in 29...32 {
                        var content: [UInt8] = []
                        while content.count < offset { content += unit }
                        content += [lead, second, 0x80, 0xBF]
                        while content.count < 72 { content += unit }
                        content += Array("\"".utf8) + Array(repeating: UInt8(ascii: "z"), count: 32)
                        Self.expectAgreement(content, "\(fill) \(lead) \(second) at \(content.count)")
                    }
                }
            }
        }
    }

    /// Random bytes made mostly of the parts of UTF-8, with quotes among them.
    @Test func randomTextAgreesWithTheReference() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<100_000 {
            let count = 40 + Int(random.next() % 100)
            let content = (0..<count).map { _ -> UInt8 in
                let pick = random.next()
                switch pick % 10 {
                case 0...2: return UInt8(ascii: "a") + UInt8(pick >> 8 % 26)
                case 3, 4: return 0x80 + UInt8(pick >> 8 & 0x3F)
                case 5, 6: return 0xC0 + UInt8(pick >> 8 & 0x3F)
                case 7: return UInt8(pick >> 8 & 0xFF)
                case 8: return 0xE0 + UInt8(pick >> 8 & 0x0F)
                default: return UInt8(ascii: "\"")
                }
            }
            Self.expectAgreement(content, "\(content)")
        }
    }
}
