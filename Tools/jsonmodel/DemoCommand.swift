import Foundation
import JSONModelKit

/// `jsonmodel demo`: parses the bundled sample JSON and shows what JSONModelKit reads from it.
enum DemoCommand: Command {
    static let name = "demo"
    static let abstract = "Parse bundled sample JSON and show what JSONModelKit reads from it."
    static let spec = ArgumentSpec()
    static let usage = """
        OVERVIEW: \(abstract)

        Parses a built-in sample (a shop's orders API payload), then prints the
        document's size, value count and depth, values read through JSONNode, the
        exact text of a 20-digit id, one object pretty-printed, and the error
        reported for a deliberately invalid snippet.

        USAGE: jsonmodel demo

        OPTIONS:
          -h, --help   Show this help.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        guard arguments.positionals.isEmpty else {
            Console.error("jsonmodel demo: unexpected argument '\(arguments.positionals[0])'\n\n\(usage)")
            return .usage
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(string: SampleData.storeOrders)
        } catch {
            // The sample is part of the tool; failing to read it is a bug in the library or the sample.
            Console.error("jsonmodel demo: the bundled sample did not parse: \(error)")
            return .failure
        }
        showDocument(document)
        showReads(document.root)
        showPrettyPrinted(document.root)
        return showInvalidSnippet()
    }

    private static func showDocument(_ document: JSONDocument) {
        let perByte = Double(document.tapeByteCount) / Double(max(document.byteCount, 1))
        Console.out("Sample: a shop's orders API payload (SampleData.storeOrders)")
        Console.out("  size        \(document.byteCount) bytes")
        Console.out("  values      \(document.valueCount)")
        Console.out("  max depth   \(document.depth)")
        Console.out("  tape        \(document.tapeByteCount) bytes (\(String(format: "%.2f", perByte)) per input byte)")
        Console.out()
    }

    private static func showReads(_ root: JSONNode) {
        let orders = root["orders"]
        let first = orders?[0]
        var rows: [(String, String)] = [
            ("shop", show(root["shop"]?.stringValue)),
            ("orders.count", show(orders?.count)),
            (#"root["orders"]?[0]?["customer"]?["name"]?.stringValue"#, show(first?["customer"]?["name"]?.stringValue)),
            (#"orders[1].customer.address.city"#, show(orders?[1]?["customer"]?["address"]?["city"]?.stringValue)),
            (#"orders[2].customer.name"#, show(orders?[2]?["customer"]?["name"]?.stringValue)),
        ]

        // The 20-digit id: more than Int64.max, exact as text and as UInt64, rounded as Double.
        let id = first?["id"]
        rows += [
            ("orders[0].id numberText", show(id?.numberText)),
            ("orders[0].id uint64Value", show(id?.uint64Value)),
            ("orders[0].id int64Value", show(id?.int64Value) + "  (beyond Int64.max)"),
            ("orders[0].id doubleValue", show(id?.doubleValue) + "  (rounded)"),
            ("orders[1].id numberText", show(orders?[1]?["id"]?.numberText) + "  (2^53 + 1)"),
            ("orders[1].id doubleValue", show(orders?[1]?["id"]?.doubleValue) + "  (nearest Double)"),
        ]

        // Escapes are resolved when a string is read; shown here with Swift escaping.
        rows += [
            ("orders[0].giftMessage", show(first?["giftMessage"]?.stringValue.map { String(reflecting: $0) })),
            ("orders[1].notes", show(orders?[1]?["notes"]?.stringValue.map { String(reflecting: $0) })),
            ("orders[0].notes isNull", show(first?["notes"]?.isNull)),
            ("orders[0].customer.loyaltyMember", show(first?["customer"]?["loyaltyMember"]?.boolValue)),
        ]

        // Dates stay strings in JSON; Foundation turns the ISO 8601 text into a Date.
        if let placedAt = first?["placedAt"]?.stringValue {
            let formatter = ISO8601DateFormatter()
            let date = formatter.date(from: placedAt)
            rows.append(("orders[0].placedAt", placedAt + "  = " + show(date.map { formatter.string(from: $0) }) + " UTC"))
        }

        // Decimal prices summed exactly from the numbers' source text.
        if let items = first?["items"] {
            var subtotal = Decimal(0)
            var skus: [String] = []
            for item in items.elements {
                skus.append(item["sku"]?.stringValue ?? "?")
                guard let quantity = item["quantity"]?.intValue,
                    let priceText = item["unitPrice"]?.numberText,
                    let price = Decimal(string: priceText, locale: Locale(identifier: "en_US_POSIX"))
                else { continue }
                subtotal += price * Decimal(quantity)
            }
            rows.append(("orders[0].items skus", skus.joined(separator: ", ")))
            rows.append(("orders[0] subtotal (Decimal)", "\(subtotal)"))
        }
        if let first {
            rows.append(("orders[0] keys (members)", first.members.map(\.key).joined(separator: ", ")))
        }

        Console.out("Reading through JSONNode")
        let width = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            Console.out("  " + label + String(repeating: " ", count: width - label.count) + "  " + value)
        }
        Console.out()
    }

    private static func showPrettyPrinted(_ root: JSONNode) {
        guard let customer = root["orders"]?[0]?["customer"] else { return }
        Console.out("orders[0].customer, pretty-printed from the tape")
        Console.out(customer.jsonString(options: [.prettyPrinted]))
        Console.out()
        if let item = root["orders"]?[0]?["items"]?[0] {
            Console.out("orders[0].items[0], compact with sorted keys")
            Console.out(item.jsonString(options: [.sortedKeys]))
            Console.out()
        }
    }

    private static func showInvalidSnippet() -> ExitStatus {
        Console.out("Invalid snippet (SampleData.invalidSnippet)")
        let error: JSONParseError
        do {
            _ = try JSONDocument(string: SampleData.invalidSnippet)
            Console.error("jsonmodel demo: the invalid snippet parsed without error")
            return .failure
        } catch let caught {
            error = caught
        }
        // The snippet with line numbers and a caret under the reported column.
        let lines = SampleData.invalidSnippet.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, line) in zip(1..., lines) {
            Console.out("  \(number) | \(line)")
            if number == error.line {
                Console.out("    | " + String(repeating: " ", count: max(error.column - 1, 0)) + "^")
            }
        }
        Console.out("  error: " + error.description.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n         "))
        Console.out("  reported at line \(error.line), column \(error.column) (byte offset \(error.offset))")
        return .success
    }

    /// An optional value as text, `nil` when absent.
    private static func show<Value>(_ value: Value?) -> String {
        value.map { "\($0)" } ?? "nil"
    }
}
