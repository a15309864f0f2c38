import Foundation
import JSONModelKit

/// `jsonmodel demo`: reads the bundled sample as models and shows what JSONModelKit does with it.
enum DemoCommand: Command {
    static let name = "demo"
    static let abstract = "A short tour: the bundled sample orders read as models."
    static let spec = ArgumentSpec()
    static let usage = """
        OVERVIEW: \(abstract)

        Reads a built-in sample (a page of a tea shop's orders API) with the models in
        Tools/jsonmodel/DemoModels.swift and prints: a lazy ModelArray and how many
        elements it built, typed reads (a 20-digit id, a date), a model's one-line
        description and full description, payments whose class the JSON picks
        (polymorphism), a value that does not convert and its diagnostic, and the error
        for a snippet of invalid JSON. Needs no files.

        USAGE: jsonmodel demo

        OPTIONS:
          -h, --help   Show this help.
        """

    static func run(_ arguments: Arguments) -> ExitStatus {
        guard arguments.positionals.isEmpty else {
            Console.error("jsonmodel demo: unexpected argument '\(arguments.positionals[0])'\n\n\(usage)")
            return .usage
        }
        let data = Data(SampleData.storeOrders.utf8)
        let orders: ModelArray<Order>
        do {
            let page = try JSONDocument(data: data).root
            orders = try Order.array(from: page["orders"] ?? page)
        } catch {
            // The sample is part of the tool; failing to read it is a bug in the library or the sample.
            Console.error("jsonmodel demo: the bundled sample did not read: \(error)")
            return .failure
        }
        Console.out("JSONModelKit demo: a page of a tea shop's orders API (\(data.count) bytes, bundled),")
        Console.out("read with the models in Tools/jsonmodel/DemoModels.swift.")

        section("1. A lazy array builds an element when you first read it")
        let before = "\(orders)"
        let name = orders[1].customer.name
        let after = "\(orders)"
        rows([
            ("let orders = try Order.array(from: page[\"orders\"]!)", before),
            ("let name: String = orders[1].customer.name", show(name)),
            ("orders", after),
        ])

        let first = orders[0]
        section("2. Typed reads convert on first use, then come from the cache")
        let id = first.id
        let placedAt = first.placedAt
        let items = first.items
        let total = items.reduce(Decimal(0)) { $0 + $1.unitPrice * Decimal($1.quantity) }
        rows([
            ("let id: UInt64 = orders[0].id", "\(id)  (beyond Int64, exact)"),
            ("let placedAt: Date? = orders[0].placedAt",
             (placedAt.map(DateFormat.iso8601.string(from:)) ?? "nil") + "  (from \"2025-03-12T18:04:11+01:00\")"),
            ("Σ unitPrice × quantity (Decimal)", "\(total)"),
        ])

        section("3. description: one line, for logs")
        let item = items[0]
        let shippingOfFirst = first.shipping
        rows([("print(orders[0].items[0])", item.debugDescription), ("print(orders[0].shipping)", shippingOfFirst.debugDescription)])

        section("4. fullDescription: every property, nested models opened")
        let customer = orders[1].customer
        Console.out(indented(customer.jsonModel.fullDescription))

        section("5. Polymorphism: each payment's \"method\" picks its class")
        rows(orders.indices.map { index in
            ("orders[\(index)].payment", orders[index].payment?.debugDescription ?? "nil")
        })

        section("6. A value that does not convert reads as the default and leaves a diagnostic")
        let shipping = orders[2].shipping
        rows([("let price: Double = orders[2].shipping.price", "\(shipping.price)")])
        do {
            try orders[2].jsonModel.validate()
            Console.out("  (no diagnostics)")
        } catch {
            for diagnostic in error.diagnostics { Console.out("  orders[2].validate(): " + diagnostic.description) }
        }

        section("7. Invalid JSON names the line and column")
        do {
            _ = try JSONDocument(string: SampleData.invalidSnippet)
            Console.error("jsonmodel demo: the invalid snippet parsed without error")
            return .failure
        } catch {
            let snippetLine = SampleData.invalidSnippet.split(separator: "\n", omittingEmptySubsequences: false)
                .dropFirst(error.line - 1).first.map(String.init) ?? ""
            Console.out("  \(error.line) | \(snippetLine)")
            let message = error.description.split(separator: "\n").first.map(String.init) ?? ""
            Console.out("    | " + String(repeating: " ", count: max(error.column - 1, 0)) + "^")
            Console.out("  " + message)
        }

        Console.out()
        Console.out("Next: jsonmodel generate FILE --name NAME      models from your own sample")
        Console.out("      jsonmodel validate --schema S.json --model NAME FILE")
        return .success
    }

    private static func section(_ title: String) {
        Console.out()
        Console.out(title)
    }

    /// Code on the left, what it gives on the right.
    private static func rows(_ rows: [(String, String)]) {
        let width = rows.map(\.0.count).max() ?? 0
        for (code, result) in rows {
            Console.out("  " + code + String(repeating: " ", count: width - code.count) + "  → " + result)
        }
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    private static func show(_ text: String) -> String {
        String(reflecting: text)
    }
}
