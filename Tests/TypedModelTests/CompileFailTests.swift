import AccessorGeneration
import Foundation
import Testing

/// Mistakes with typed members fail to build with a message naming the property, and a
/// correct client builds: each client file of `CompileFail` is typechecked with the members
/// generated for `CompileFail/Models.swift` (``Typechecker``).
@Suite("Compile failures")
struct CompileFailTests {
    @Test(.enabled(if: Typechecker.available))
    func correctClientTypechecks() throws {
        let output = try Typechecker.typecheck(client: "CorrectClient.swift")
        #expect(output.status == 0, "\(output.output)")
        #expect(output.diagnostics.isEmpty, "\(output.output)")
    }

    /// A subclass of a generic model names its superclass's member types through itself: the
    /// superclass's name alone needs arguments only the subclass's clause gives.
    @Test(.enabled(if: Typechecker.available))
    func membersNameTypesOfAGenericSuperclassThroughTheSubclass() throws {
        let generated = try Typechecker.accessors(for: ["InheritedTypes.swift"]).source
        #expect(generated.contains("    var previous: RepositoryPage.Status? {\n"), "\(generated)")
        #expect(generated.contains("    var status: Page.Status? {\n"), "\(generated)")
        let output = try Typechecker.typecheck(client: "InheritedTypesClient.swift", models: ["InheritedTypes.swift"])
        #expect(output.status == 0, "\(output.output)")
        #expect(output.diagnostics.isEmpty, "\(output.output)")
    }

    /// Models written in ways the generator once misread: imports in a multi-line `#if` or with
    /// an access word on the line before, a label named `import`, enum cases named `package` and
    /// `open`, `Self` in property types, types declared in the block, a helper named
    /// `properties`, members written in Swift, SPI types, availability, `DynamicMembers`
    /// adopted through a protocol or by a subclass, models in an extension written through an
    /// alias, models under `#if`, and generic parameters named like a type. Their members build, without a diagnostic.
    @Test(.enabled(if: Typechecker.available))
    func membersOfModelsWrittenInLessCommonWaysBuild() throws {
        let models = ["GeneratorPaths.swift", "GeneratorPathsOther.swift"]
        let generated = try Typechecker.accessors(for: models).source
        for member in [
            "    var at: Date? {\n", "    public var count: Int {\n", "    var name: String {\n",
            "    var next: Leaf? {\n", "    var children: [Leaf] {\n", "    var kind: Tree.Kind? {\n",
            "    @_spi(Beta) public var token: Host.Token? {\n", "    public var name: String {\n",
            "extension Catalog.Cart {\n    var item: Catalog.Item? {\n", "extension Catalog.Order {\n",
            "extension Catalog.Page {\n    var items: [Item] {\n", "#if canImport(Dispatch)\nextension Job {\n",
        ] {
            #expect(generated.contains(member), "\(member) in \(generated)")
        }
        #expect(generated.contains("@available(swift, introduced: 99)\nextension Future {\n"), "\(generated)")
        #expect(generated.contains("\nimport Dispatch\n"), "\(generated)")
        #expect(generated.contains("#if (os(macOS) ||"), "\(generated)")
        #expect(!generated.contains("extension Counter: DynamicMembers"), "\(generated)")
        #expect(!generated.contains("extension UserSettings: DynamicMembers"), "\(generated)")
        let output = try Typechecker.typecheck(client: "GeneratorPathsClient.swift", models: models)
        #expect(output.status == 0, "\(output.output)")
        #expect(output.diagnostics.isEmpty, "\(output.output)")
    }

    /// Creation with `ModelOptions` typechecks without a diagnostic, and no call is ambiguous.
    @Test(.enabled(if: Typechecker.available))
    func creationCallsResolveWithoutAmbiguity() throws {
        let output = try Typechecker.typecheck(client: "CreationClient.swift")
        #expect(output.status == 0, "\(output.output)")
        #expect(output.diagnostics.isEmpty, "\(output.output)")
    }

    /// The spellings from before `ModelOptions` are gone: each fails to build, at its line.
    @Test(.enabled(if: Typechecker.available))
    func removedCreationSpellingsDoNotBuild() throws {
        let file = "RemovedCreationClient.swift"
        let output = try Typechecker.typecheck(client: file)
        #expect(output.status != 0)
        let lines = try Typechecker.text(of: file).split(separator: "\n", omittingEmptySubsequences: false)
        let removed = lines.indices.filter { lines[$0].hasSuffix("// removed") }.map { $0 + 1 }
        #expect(removed.count == 22)
        #expect(Set(output.errors.map(\.line)) == Set(removed), "\(output.output)")
    }

    /// A class and its subclass that each need `DynamicMembers` from the generator (statements
    /// it cannot read in both blocks): the base gets it, the subclass inherits it, and the
    /// members of both, typed and read by name, build.
    @Test(.enabled(if: Typechecker.available))
    func aSubclassInheritsTheDynamicMembersItsBaseIsGiven() throws {
        let generated = try Typechecker.accessors(for: ["UnreadableLineage.swift"])
        #expect(generated.source.components(separatedBy: ": DynamicMembers {}").count == 2, "\(generated.source)")
        let output = try Typechecker.typecheck(client: "UnreadableLineageClient.swift", models: ["UnreadableLineage.swift"])
        #expect(output.status == 0, "\(output.output)")
        #expect(output.errors.isEmpty, "\(output.output)")
    }

    @Test(.enabled(if: Typechecker.available))
    func misspelledPropertyIsNoMember() throws {
        let output = try Typechecker.typecheck(client: "MisspelledProperty.swift")
        let read = try Typechecker.position(of: "user.logn", in: "MisspelledProperty.swift")
        #expect(output.status != 0)
        #expect(output.errors.map(\.message) == ["value of type 'User' has no member 'logn'"], "\(output.output)")
        #expect(output.errors.map(\.line) == [read.line])
    }

    @Test(.enabled(if: Typechecker.available))
    func wrongTypeAnnotationNamesBothTypesAtTheRead() throws {
        let file = "WrongTypeAnnotation.swift"
        let output = try Typechecker.typecheck(client: file)
        let read = try Typechecker.position(of: "user.age", in: file)
        #expect(output.status != 0)
        let error = try #require(output.errors.first, "\(output.output)")
        #expect(output.errors.count == 1, "\(output.output)")
        #expect(error.message == "cannot convert value of type 'Int' to specified type 'String'")
        #expect(error.file == file)
        #expect(error.line == read.line)
        #expect(read.columns.contains(error.column), "column \(error.column) is outside user.age at \(read.columns)")
        // Under the first line the compiler quotes the source line, which names the property.
        let quoted = output.output.split(separator: "\n").contains { line in
            line.drop { $0 == " " }.hasPrefix("\(read.line) | ") && line.hasSuffix(read.text)
        }
        #expect(quoted, "no quoted line \(read.line) in:\n\(output.output)")
    }

    @Test(.enabled(if: Typechecker.available))
    func writeToReadOnlyPropertyIsGetOnly() throws {
        let output = try Typechecker.typecheck(client: "ReadOnlyWrite.swift")
        let write = try Typechecker.position(of: "user.id = 2", in: "ReadOnlyWrite.swift")
        #expect(output.status != 0)
        #expect(output.errors.map(\.message) == ["cannot assign to property: 'id' is a get-only property"], "\(output.output)")
        #expect(output.errors.map(\.line) == [write.line])
    }

    @Test(.enabled(if: Typechecker.available))
    func optionalReadAsNonOptionalMustBeUnwrapped() throws {
        let output = try Typechecker.typecheck(client: "OptionalAsNonOptional.swift")
        let read = try Typechecker.position(of: "user.bio", in: "OptionalAsNonOptional.swift")
        #expect(output.status != 0)
        #expect(
            output.errors.map(\.message) == ["value of optional type 'String?' must be unwrapped to a value of type 'String'"],
            "\(output.output)")
        #expect(output.errors.map(\.line) == [read.line])
        #expect(output.errors.allSatisfy { read.columns.contains($0.column) })
    }

    /// Models are read from any thread, so a property's type must be `Sendable`: a class that is
    /// not is refused where it is declared, not found out under load.
    @Test(.enabled(if: Typechecker.available))
    func nonSendablePropertyTypeIsRefusedAtTheDeclaration() throws {
        let file = "NonSendablePropertyType.swift"
        let output = try Typechecker.typecheck(client: file)
        let declaration = try Typechecker.position(of: "p.counter(Counter.self)", in: file)
        #expect(output.status != 0)
        let error = try #require(output.errors.first, "\(output.output)")
        #expect(error.message.contains("'Counter'") && error.message.contains("Sendable"), "\(output.output)")
        #expect(output.errors.map(\.line) == [declaration.line], "\(output.output)")
    }

    /// No compiler involved: the generator reports the name itself, at the declaration.
    @Test func nameOfAJSONModelMemberIsAGeneratorError() throws {
        let file = "CollidingName.swift"
        let generated = try Typechecker.accessors(for: [file])
        let declaration = try Typechecker.position(of: "p.jsonModel(", in: file)
        #expect(generated.hasErrors)
        let error = try #require(generated.diagnostics.first { $0.severity == .error }, "\(generated.diagnostics)")
        #expect(generated.diagnostics.count == 1, "\(generated.diagnostics)")
        #expect(error.file == file)
        #expect(error.line == declaration.line)
        #expect(error.message.contains("'jsonModel' is a member of JSONModel"), "\(error)")
        #expect(error.description.hasPrefix("\(file):\(declaration.line):"))
        // The other property still gets its member; the colliding one gets none.
        #expect(generated.source.contains("var name: String"))
        #expect(!generated.source.contains("var jsonModel"))
    }
}
