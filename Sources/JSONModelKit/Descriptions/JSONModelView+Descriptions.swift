// The parts of a model's own API that describe it: its diagnostics, gathered from the nested
// models it holds, and its descriptions for logs.

extension JSONModelView {
    /// The diagnostics recorded by the reads so far: the model's, then those of the nested
    /// models it holds.
    ///
    /// The model's own come first, in the order its reads happened. Then come those of every
    /// nested model already built (a model property read, an element of a lazy collection
    /// read), depth first in declaration order, each with its path from the model's object:
    /// a quantity read badly in the first line of an order shows on the order as `lines[0].qty`,
    /// and on the line itself as `qty`. Gathering them converts nothing and builds no model;
    /// ``validate(strict:)`` converts everything and finds every problem, read or not.
    public var diagnostics: [ModelDiagnostic] { model.allDiagnostics }

    /// One line for logs with limits of your own; `print(model)` writes the line with the
    /// default limits.
    ///
    /// The line shows the model name and the properties whose values differ from their
    /// defaults, in declaration order, and stops at the last property that fits; see
    /// ``DescriptionLimits``. Describing never changes what later reads return nor records
    /// diagnostics.
    ///
    /// - Complexity: O(*p*) in the number of properties shown, plus their conversion when not cached.
    public func description(limits: DescriptionLimits) -> String {
        model.lineDescription(limits: limits)
    }

    /// Every property, nested models and collections opened, then what else the model knows.
    ///
    /// ```swift
    /// print(user.jsonModel.fullDescription)
    /// // User(
    /// //   firstName: "Ann",
    /// //   age: 31,
    /// //   address: Address(city: "Rome"),
    /// //   tags: [
    /// //     [0]: "a",
    /// //     [1]: "b"
    /// //   ]
    /// // )
    /// // unknown keys:
    /// //   legacy_id: 7
    /// // changed since the original:
    /// //   age: 30 → 31
    /// // diagnostics:
    /// //   age: expected a number, found a string "x" (User.age, typeMismatch)
    /// ```
    ///
    /// The layout is swift-custom-dump's: two spaces per level, `label: value`
    /// per line, a model with a single simple property on one line. Arrays show
    /// 100 elements and then `… 9,900 more`; dictionaries are sorted by key;
    /// empty ones read `[]` and `[:]`. The parents a model refers back to through
    /// inverse relationships follow its properties (`order (inverse): …`). A model
    /// met again inside itself reads `↻ User`; past 12 levels a model reads
    /// `Node(…)` and a collection its size. The sections after the model appear only when
    /// they have lines: keys of the JSON no property reads (kept in output), properties
    /// written since the model was created with their original and current values, and the
    /// diagnostics recorded by reads so far (describing records none).
    public var fullDescription: String { fullDescription(limits: .default) }

    /// ``fullDescription`` with limits of your own; see ``DescriptionLimits``.
    public func fullDescription(limits: DescriptionLimits) -> String {
        var text = ""
        model.writeFull(to: &text, limits: limits)
        return text
    }

    /// Writes the full description into a stream, without building it as one string first.
    ///
    /// ```swift
    /// var log = ""
    /// user.jsonModel.writeFullDescription(to: &log)
    /// ```
    public func writeFullDescription(to output: inout some TextOutputStream, limits: DescriptionLimits = .default) {
        model.writeFull(to: &output, limits: limits)
    }
}
