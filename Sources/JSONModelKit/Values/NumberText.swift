/// Number text as JSON spells it, checked and classified without converting it.
enum NumberText {
    /// Whether `text` follows the JSON number grammar exactly (no spaces, no `+`, no hex): the
    /// grammar of ``NumberParsing/isValid(_:)``, which ``JSONNumber`` checks too.
    static func isValid(_ text: String) -> Bool {
        JSONNumber.withBytes(of: text, NumberParsing.isValid)
    }

    /// Whether number text names a value other than zero: a digit from 1 to 9 before any
    /// exponent. A `Double` or `Float` that reads such text as 0 has underflowed.
    static func isNonzero<Bytes: Sequence<UInt8>>(_ text: Bytes) -> Bool {
        for byte in text {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return false
            default: continue
            }
        }
        return false
    }
}

extension FixedWidthInteger {
    /// The integer of `magnitude` with the sign `negative` says, when it fits: what the
    /// integer readers of number text (``NumberParsing``) give, made into `Self`.
    @inline(__always)
    init?(negative: Bool, magnitude: UInt64) {
        if !negative {
            self.init(exactly: magnitude)
        } else if magnitude <= UInt64(Int64.max) {
            self.init(exactly: -Int64(magnitude))
        } else if magnitude == UInt64(Int64.max) + 1 {
            self.init(exactly: Int64.min)
        } else {
            return nil
        }
    }
}
