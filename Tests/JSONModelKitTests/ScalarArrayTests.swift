import Foundation
import Testing

@testable import JSONModelKit

/// Arrays, and arrays of arrays, of every scalar kind.
final class ScalarGrids: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.points([[[Double]]].self)
        p.rows([[Int]].self)
        p.small([Int8].self)
        p.ids([UInt64].self)
        p.words([[String]].self)
        p.flags([[Bool]].self)
        p.singles([Float].self)
        p.maybe([[Double?]].self)
        p.days([Date].self)
        p.fallback([Double].self, default: [4])
        // Every element plain: an immutable model's first read takes these.
        p.counts([Int].self)
        p.levels([Double]?.self)
        p.switches([Bool].self)
        p.absent([Int]?.self)
    }
}

/// Each element of an array of scalars converts as the scalar property would: the elements that
/// convert are kept, the others left out (read nil for an optional element), and each problem
/// is a diagnostic at the element's own path, whether the model reads a parsed document or an
/// owned value, and under strict validation. An immutable model's first read of an array whose
/// elements all read plainly gives what the general conversion gives.
@Suite("Scalar arrays")
struct ScalarArrayTests {
    static let json = #"""
        {"points": [[[1.5, -65.613616999999977], ["2.5", "x"]], [[1e400, 1e-400, null, 7]], 3, [[[1]]], [[0, -0.0]]],
         "rows": [[1, 2.5, "3", 1e30, true], [], [9007199254740993, -4]],
         "small": [127, 128, -129, 1.0, -128],
         "ids": [18446744073709551615, -1, 1e19, 0],
         "words": [["a", 1, true, null, "\u00e9"], ["b"]],
         "flags": [[true, false, 1, "yes", "maybe"]],
         "singles": [1.5, 1e-50, 1e40, "2"],
         "maybe": [[1.5, null, "x"], [null]],
         "days": ["2024-01-02T03:04:05Z", "not a date", 0],
         "fallback": "none",
         "counts": [1, -2, 9007199254740993, 0, 1.0, 1e2], "levels": [0.5, -65.613616999999977, 1e-300, 7], "switches": []}
        """#

    static let names = [
        "points", "rows", "small", "ids", "words", "flags", "singles", "maybe", "days", "fallback", "counts", "levels",
        "switches", "absent",
    ]

    /// Every property's value, then every diagnostic, one a line.
    static func readings(of model: ScalarGrids) -> String {
        var lines: [String] = []
        for name in names {
            lines.append("\(name) = \(model.jsonModel.value(forProperty: name).map { String(describing: $0) } ?? "nil")")
        }
        lines += model.jsonModel.diagnostics.map(\.description)
        return lines.joined(separator: "\n")
    }

    static let expectedReadings = """
        points = [[[1.5, -65.61361699999998], [2.5]], [[0.0, 7.0]], [[]], [[0.0, -0.0]]]
        rows = [[1, 3, 3], [], [9007199254740993, -4]]
        small = [127, 1, -128]
        ids = [18446744073709551615, 10000000000000000000, 0]
        words = [["a", "1", "true", "é"], ["b"]]
        flags = [[true, false, true, true]]
        singles = [1.5, 0.0, 2.0]
        maybe = [[Optional(1.5), nil, nil], [nil]]
        days = [2024-01-02 03:04:05 +0000, 1970-01-01 00:00:00 +0000]
        fallback = [4.0]
        counts = [1, -2, 9007199254740993, 0, 1, 100]
        levels = [0.5, -65.61361699999998, 1e-300, 7.0]
        switches = []
        absent = nil
        points[0][1][1]: expected Double, found a string "x" (ScalarGrids.points, typeMismatch)
        points[1][0][0]: 1e400 does not fit in Double (ScalarGrids.points, outOfRange)
        points[1][0][1]: 1e-400 is too small for Double: read as 0 (ScalarGrids.points, lossy)
        points[1][0][2]: expected Double, found null (ScalarGrids.points, typeMismatch)
        points[2]: expected an array of [Double], found a number 3 (ScalarGrids.points, typeMismatch)
        points[3][0][0]: expected Double, found an array (ScalarGrids.points, typeMismatch)
        rows[0][1]: 2.5 rounded to 3 to fit Int (ScalarGrids.rows, lossy)
        rows[0][3]: 1e30 does not fit in Int (ScalarGrids.rows, outOfRange)
        rows[0][4]: expected Int, found a bool true (ScalarGrids.rows, typeMismatch)
        small[1]: 128 does not fit in Int8 (ScalarGrids.small, outOfRange)
        small[2]: -129 does not fit in Int8 (ScalarGrids.small, outOfRange)
        ids[1]: -1 does not fit in UInt64 (ScalarGrids.ids, outOfRange)
        words[0][3]: expected String, found null (ScalarGrids.words, typeMismatch)
        flags[0][4]: expected Bool, found a string "maybe" (ScalarGrids.flags, typeMismatch)
        singles[1]: 1e-50 is too small for Float: read as 0 (ScalarGrids.singles, lossy)
        singles[2]: 1e40 does not fit in Float (ScalarGrids.singles, outOfRange)
        maybe[0][2]: expected Double, found a string "x" (ScalarGrids.maybe, typeMismatch)
        days[1]: "not a date" is not a date in iso8601 or a known date format (ScalarGrids.days, invalidValue)
        fallback: expected an array of Double, found a string "none" (ScalarGrids.fallback, typeMismatch)
        """

    static let expectedStrict = """
        points[0][1][0]: expected Double, found a string "2.5" (converted only when not strict) (ScalarGrids.points, typeMismatch)
        points[0][1][1]: expected Double, found a string "x" (ScalarGrids.points, typeMismatch)
        points[1][0][0]: 1e400 does not fit in Double (ScalarGrids.points, outOfRange)
        points[1][0][1]: 1e-400 is too small for Double: read as 0 (ScalarGrids.points, lossy)
        points[1][0][2]: expected Double, found null (ScalarGrids.points, typeMismatch)
        points[2]: expected an array of [Double], found a number 3 (ScalarGrids.points, typeMismatch)
        points[3][0][0]: expected Double, found an array (ScalarGrids.points, typeMismatch)
        rows[0][1]: 2.5 rounded to 3 to fit Int (ScalarGrids.rows, lossy)
        rows[0][2]: expected Int, found a string "3" (converted only when not strict) (ScalarGrids.rows, typeMismatch)
        rows[0][3]: 1e30 does not fit in Int (ScalarGrids.rows, outOfRange)
        rows[0][4]: expected Int, found a bool true (ScalarGrids.rows, typeMismatch)
        small[1]: 128 does not fit in Int8 (ScalarGrids.small, outOfRange)
        small[2]: -129 does not fit in Int8 (ScalarGrids.small, outOfRange)
        ids[1]: -1 does not fit in UInt64 (ScalarGrids.ids, outOfRange)
        words[0][1]: expected String, found a number 1 (converted only when not strict) (ScalarGrids.words, typeMismatch)
        words[0][2]: expected String, found a bool true (converted only when not strict) (ScalarGrids.words, typeMismatch)
        words[0][3]: expected String, found null (ScalarGrids.words, typeMismatch)
        flags[0][2]: expected Bool, found a number 1 (converted only when not strict) (ScalarGrids.flags, typeMismatch)
        flags[0][3]: expected Bool, found a string "yes" (converted only when not strict) (ScalarGrids.flags, typeMismatch)
        flags[0][4]: expected Bool, found a string "maybe" (ScalarGrids.flags, typeMismatch)
        singles[1]: 1e-50 is too small for Float: read as 0 (ScalarGrids.singles, lossy)
        singles[2]: 1e40 does not fit in Float (ScalarGrids.singles, outOfRange)
        singles[3]: expected Float, found a string "2" (converted only when not strict) (ScalarGrids.singles, typeMismatch)
        maybe[0][2]: expected Double, found a string "x" (ScalarGrids.maybe, typeMismatch)
        days[1]: "not a date" is not a date in iso8601 or a known date format (ScalarGrids.days, invalidValue)
        fallback: expected an array of Double, found a string "none" (ScalarGrids.fallback, typeMismatch)
        """

    @Test(arguments: ["document", "mutable", "value"])
    func elementsConvertOneByOne(source: String) throws {
        let model: ScalarGrids
        switch source {
        case "document": model = try ScalarGrids(json: Self.json)
        case "mutable": model = try ScalarGrids(json: Self.json, options: .mutable)
        default: model = try ScalarGrids(json: try JSONValue(json: Self.json))
        }
        let readings = Self.readings(of: model)
        #expect(readings == Self.expectedReadings, "\(source):\n\(readings)")
        do {
            try model.jsonModel.validate(strict: true)
            Issue.record("strict validation passed")
        } catch {
            let strict = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(strict == Self.expectedStrict, "\(source):\n\(strict)")
        }
    }
}
