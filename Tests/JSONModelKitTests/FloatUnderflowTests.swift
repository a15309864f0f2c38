import Foundation
import Testing

@testable import JSONModelKit

final class TinyNumbers: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.amount(Double.self)
        p.single(Float.self)
    }
}

/// A nonzero number too small for `Double` or `Float` reads 0 with a lossy diagnostic, as one
/// too large reads the default with an out-of-range one; zero itself, and the binary rounding of
/// numbers in range (subnormals included), record nothing. The immutable model's first read
/// and the mutable model's general path agree.
@Suite("Float underflow")
struct FloatUnderflowTests {
    @Test(arguments: [
        ("1e-400", 1), ("-1e-400", 1), ("\"1e-400\"", 1), ("0", 0), ("0.0e-999", 0), ("-0", 0), ("5e-324", 0),
        ("1e-300", 0),
    ])
    func doubleUnderflowIsLossy(text: String, diagnostics: Int) throws {
        for options in [ModelOptions(), .mutable] {
            let model = try TinyNumbers(json: #"{"amount": \#(text)}"#, options: options)
            let value = model.jsonModel.value(forProperty: "amount") as? Double
            #expect(value == Double(text.replacingOccurrences(of: "\"", with: "")))
            #expect(model.jsonModel.diagnostics.count == diagnostics, "\(model.jsonModel.diagnostics)")
            #expect(model.jsonModel.diagnostics.allSatisfy { $0.kind == .lossy && $0.description.contains("too small") })
        }
    }

    @Test(arguments: [("1e-50", 1), ("1e-40", 0), ("0", 0)])
    func floatUnderflowIsLossy(text: String, diagnostics: Int) throws {
        let model = try TinyNumbers(json: #"{"single": \#(text)}"#)
        #expect(model.jsonModel.value(forProperty: "single") as? Float == Float(text))
        #expect(model.jsonModel.diagnostics.count == diagnostics, "\(model.jsonModel.diagnostics)")
    }
}
