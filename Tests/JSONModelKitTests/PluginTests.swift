import AccessorGeneration
import Foundation
import Testing
@testable import JSONModelKit
import JSONModelKitTestSupport

/// Builds plugins with the toolchain that built this test program, against the module it
/// built, so that they leave JSONModelKit's symbols to this (exporting) program.
///
/// Everything is located from the running program (``BuildProducts``); when something is
/// missing the plugin tests are skipped with a printed reason.
enum PluginBuilder {
    struct Toolchain: Sendable {
        /// The compiler of the toolchain whose runtime this program runs.
        let swiftc: URL
        /// The build's folder of modules (holds `JSONModelKit.swiftmodule`).
        let modules: URL
        /// The build's object files of JSONModelKit, for a plugin that carries its own copy.
        let objects: [URL]
        /// The folder of the test program, where SwiftPM puts the plugin product too.
        let products: URL
        /// Extra compiler flags matching this program (the thread sanitizer).
        let flags: [String]
    }

    /// The plugins the tests load, built once, in parallel.
    struct Plugins: Sendable {
        let toolchain: Toolchain
        let folder: URL
        /// The example plugin, built with the README's recipe.
        let example: URL
        /// The typed members of the example's models, generated as `jsonmodel accessors` does and
        /// compiled with its sources, as the JSONModelAccessors plugin does in SwiftPM's build.
        let exampleAccessors: URL
        /// A second file with the same plugin's source under another module name.
        let exampleCopy: URL
        /// A plugin with its own copy of JSONModelKit (SwiftPM's product when built, else linked here).
        let selfContained: URL?
        let noEntry: URL
        let newerABI: URL
        let faulty: URL
        let throwing: URL
        /// A plugin whose entry point loads another plugin, as ``NestedLoad`` asks.
        let nesting: URL
        /// A plugin that registers a converter for a property of a host model, by name.
        let hostConverter: URL
    }

    static let plugins: Result<Plugins, Skip> = Result { () throws(Skip) -> Plugins in try build() }

    /// Why there are no plugins: a missing toolchain (the tests are skipped) or a plugin that
    /// does not compile (the tests run and fail with the compiler's message).
    struct Skip: Error, CustomStringConvertible {
        let description: String
        var isFailure = false
    }

    /// Whether the plugin tests run; prints why not.
    static var available: Bool {
        switch plugins {
        case .success: return true
        case .failure(let skip):
            if skip.isFailure { return true }
            print("note: plugin tests skipped: \(skip)")
            return false
        }
    }

    static func toolchain() throws(Skip) -> Toolchain {
        #if os(Linux)
        let build: BuildProducts
        let swiftc: URL
        do {
            build = try BuildProducts.current.get()
            swiftc = try build.tool("swiftc")
        } catch {
            throw Skip(description: error.description)
        }
        guard symbolIsExported() else {
            throw Skip(description: "this test program does not export its symbols (link it with -Xlinker --export-dynamic)")
        }
        // The objects of the library's current Swift sources, its modules, as the build's output
        // file maps name them: the folders may also hold objects of files since deleted or renamed.
        // (The C targets' functions are all inline: they have no object to link.)
        let objects = ["JSONModelKitCore", "JSONModelNames", "JSONModelKit"].flatMap { module -> [URL] in
            let fileMap = build.folder.appendingPathComponent("\(module).build/output-file-map.json")
            let entries = (try? Data(contentsOf: fileMap)).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
            return (entries ?? [:]).compactMap { source, outputs -> URL? in
                guard !source.isEmpty, let object = (outputs as? [String: Any])?["object"] as? String else { return nil }
                return URL(fileURLWithPath: object)
            }
        }.sorted { $0.path < $1.path }
        let sanitized = dlsym(nil, "__tsan_init") != nil
        return Toolchain(
            swiftc: swiftc, modules: build.modules, objects: objects, products: build.folder,
            flags: build.importFlags + (sanitized ? ["-sanitize=thread"] : []))
        #else
        throw Skip(description: "the plugin tests build plugins on Linux only")
        #endif
    }

    /// Whether JSONModelKit's symbols are visible to `dlsym` from anywhere: a plugin needs them.
    static func symbolIsExported() -> Bool {
        dlsym(nil, "$s12JSONModelKit13ModelRegistryC6sharedACvau") != nil
    }

    static func build() throws(Skip) -> Plugins {
        let toolchain = try toolchain()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jsonmodelkit-plugins-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try variantSource.write(to: folder.appendingPathComponent("Variant.swift"), atomically: true, encoding: .utf8)
        } catch {
            throw Skip(description: "cannot write to \(folder.path): \(error)")
        }
        let modelSources = ((try? FileManager.default.contentsOfDirectory(atPath: exampleFolder.path)) ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted().map { exampleFolder.appendingPathComponent($0).path }
        guard !modelSources.isEmpty else { throw Skip(description: "no sources in \(exampleFolder.path)") }
        let accessors = folder.appendingPathComponent("Accessors.swift")
        try generateAccessors(for: modelSources, into: accessors)
        let exampleSources = modelSources + [accessors.path]
        let variant = [folder.appendingPathComponent("Variant.swift").path]

        func library(_ name: String) -> URL { folder.appendingPathComponent("lib\(name).so") }
        var jobs: [(output: URL, arguments: [String])] = [
            (library("ExampleModelsPlugin"), exampleSources + ["-module-name", "ExampleModelsPlugin"]),
            (library("ExampleModelsPluginCopy"), exampleSources + ["-module-name", "ExampleModelsPluginCopy"]),
            (library("NoEntry"), variant + ["-module-name", "NoEntry", "-D", "NO_ENTRY"]),
            (library("NewerABI"), variant + ["-module-name", "NewerABI", "-D", "NEWER_ABI"]),
            (library("Faulty"), variant + ["-module-name", "Faulty", "-D", "FAULTY"]),
            (library("Throwing"), variant + ["-module-name", "Throwing", "-D", "THROWING"]),
            (library("Nesting"), variant + ["-module-name", "Nesting", "-D", "NESTING"]),
            (library("HostConverter"), variant + ["-module-name", "HostConverter", "-D", "HOST_CONVERTER"]),
        ]
        // A plugin with a JSONModelKit of its own, as a SwiftPM dynamic-library product would link:
        // the build's objects linked into it.
        let selfContained = library("ExampleModelsPluginStatic")
        if !toolchain.objects.isEmpty {
            jobs.append((selfContained, exampleSources + ["-module-name", "ExampleModelsPluginStatic"] + toolchain.objects.map(\.path)))
        }
        let processes = jobs.map { job -> (Process, Pipe, URL) in
            let process = Process()
            process.executableURL = toolchain.swiftc
            process.arguments = ["-emit-library", "-swift-version", "6", "-I", toolchain.modules.path]
                + toolchain.flags + job.arguments + ["-o", job.output.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            return (process, errors, job.output)
        }
        for (process, _, _) in processes {
            do { try process.run() } catch { throw Skip(description: "cannot run \(toolchain.swiftc.path): \(error)") }
        }
        for (process, errors, output) in processes {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                // A compiler failure is a failure of the plugin source, not a reason to skip.
                throw Skip(description: "building \(output.lastPathComponent) failed:\n\(message)", isFailure: true)
            }
        }
        return Plugins(
            toolchain: toolchain, folder: folder, example: library("ExampleModelsPlugin"), exampleAccessors: accessors,
            exampleCopy: library("ExampleModelsPluginCopy"),
            selfContained: FileManager.default.fileExists(atPath: selfContained.path) ? selfContained : nil,
            noEntry: library("NoEntry"), newerABI: library("NewerABI"), faulty: library("Faulty"),
            throwing: library("Throwing"), nesting: library("Nesting"), hostConverter: library("HostConverter"))
    }

    /// Whether the plugins include one with its own JSONModelKit; true when they could not be
    /// built, so that the test fails saying why.
    static var hasSelfContained: Bool { (try? plugins.get()).map { $0.selfContained != nil } ?? true }

    /// Whether the build's objects of JSONModelKit were found beside the test program; true when
    /// the plugins could not be built, so that the test fails saying why.
    static var hasObjects: Bool { (try? plugins.get()).map { !$0.toolchain.objects.isEmpty } ?? true }

    static let exampleFolder = SharedData.packageRoot.appendingPathComponent("Sources/ExampleModelsPlugin")

    /// Writes the typed members of the models in `sources` to `output`: the README's
    /// `jsonmodel accessors Sources/ExampleModelsPlugin/*.swift > Accessors.swift`.
    static func generateAccessors(for sources: [String], into output: URL) throws(Skip) {
        var files: [(path: String, text: String)] = []
        for path in sources {
            guard let data = FileManager.default.contents(atPath: path) else { throw Skip(description: "cannot read \(path)") }
            files.append((path, String(decoding: data, as: UTF8.self)))
        }
        let generated = AccessorGenerator.generate(files: files)
        guard generated.diagnostics.isEmpty else {
            // The example must declare its models cleanly: a diagnostic is a failure, not a skip.
            let messages = generated.diagnostics.map(\.description).joined(separator: "\n")
            throw Skip(description: "the example plugin's registration blocks:\n\(messages)", isFailure: true)
        }
        do {
            try generated.source.write(to: output, atomically: true, encoding: .utf8)
        } catch {
            throw Skip(description: "cannot write \(output.path): \(error)")
        }
    }

    /// Small plugins that go wrong in one way each, chosen with `-D`.
    static let variantSource = #"""
        import JSONModelKit
        #if NESTING
        import Foundation
        #if canImport(Glibc)
        import Glibc
        #endif
        #endif

        final class Gadget: JSONModel, DynamicMembers, @unchecked Sendable {
            override class func properties(_ p: PropertyRegistrar) {
                p.name(String.self)
                #if FAULTY
                p.name(Int.self)   // declared twice
                #endif
            }
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String { "the plugin's configuration is missing" }
        }

        #if NESTING
        typealias Hook = @convention(c) () -> Int32

        /// A function of the test program (NestedLoad in PluginTests.swift), found by name.
        func hook(_ name: String) -> Hook? {
            dlsym(nil, name).map { unsafeBitCast($0, to: Hook.self) }
        }

        struct HelperTimedOut: Error, CustomStringConvertible {
            var description: String { "the helper thread's load did not finish within 20 seconds" }
        }

        /// Loads the plugin the test program names: from a helper thread this entry point waits
        /// for (mode 1), or on this thread (mode 2).
        func loadAnotherPlugin() throws {
            guard let mode = hook("jsonmodelkit_tests_nesting_mode"), let load = hook("jsonmodelkit_tests_nested_load") else {
                return
            }
            switch mode() {
            case 1:
                let done = DispatchSemaphore(value: 0)
                Thread {
                    _ = load()
                    done.signal()
                }.start()
                // Bounded, so that a loader that deadlocks fails the test instead of hanging it.
                if done.wait(timeout: .now() + 20) == .timedOut { throw HelperTimedOut() }
            case 2:
                _ = load()
            default:
                break
            }
        }
        #endif

        #if NO_ENTRY
        @_cdecl("jsonmodelkit_plugin_entri")
        public func misspelledEntry(_ host: Int32, _ registrar: UnsafeMutableRawPointer?) -> Int32 { host }
        #else
        @_cdecl("jsonmodelkit_plugin_entry")
        public func entry(_ host: Int32, _ registrar: UnsafeMutableRawPointer?) -> Int32 {
            #if NEWER_ABI
            let version = JSONModelPlugin.abiVersion + 1
            #else
            let version = JSONModelPlugin.abiVersion
            #endif
            return JSONModelPlugin.register(hostABIVersion: host, pluginABIVersion: version, registrar: registrar) { plugin in
                plugin.register(Gadget.self)
                plugin.register(.hexColor, named: "gadgetColor")
                #if FAULTY
                plugin.register(try ModelSchema(json: """
                    {"models": [{"name": "Widget", "properties": [{"name": "part", "type": "Gizmo"}]}]}
                    """))
                #endif
                #if THROWING
                throw Failure()
                #endif
                #if HOST_CONVERTER
                plugin.register(.hexColor, forProperty: "color", ofModelNamed: "PluginHostSwatch")
                #endif
                #if NESTING
                try loadAnotherPlugin()
                #endif
            }
        }
        #endif
        """#
}

/// A host model that a plugin's converter names.
final class PluginHostSwatch: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.color(Int.self)
    }
}

@Suite("Plugins", .enabled(if: PluginBuilder.available))
struct PluginTests {
    var plugins: PluginBuilder.Plugins {
        get throws { try PluginBuilder.plugins.get() }
    }

    static func json(_ text: String) -> Data { Data(text.utf8) }

    /// A plugin names a host model as it is registered. Loaded before the host registered or
    /// used the class, the name was filed as a schema model's, and the converter never applied,
    /// without a word: now the load is refused, saying what to do.
    @Test func aConverterForAHostModelNotRegisteredYetIsRefused() throws {
        let registry = ModelRegistry()
        #expect(registry.modelType(named: "PluginHostSwatch") == nil)
        do {
            _ = try registry.loadPlugin(at: plugins.hostConverter)
            Issue.record("the plugin loaded")
        } catch {
            #expect("\(error)".contains("PluginHostSwatch: no model of this name is registered"), "\(error)")
        }
        #expect(registry.modelType(named: "Gadget") == nil, "a refused load registers nothing")
        let ready = ModelRegistry()
        try ready.register(PluginHostSwatch.self)
        #expect(try ready.loadPlugin(at: plugins.hostConverter) == ["Gadget"])
    }

    @Test func loadsTheExamplePluginAndReadsItsModelsByName() throws {
        let registry = ModelRegistry()
        #expect(try registry.loadPlugin(at: plugins.example) == ["Vehicle", "Car", "Truck", "Fleet"])
        let plugin = try #require(registry.plugins.loaded.first)
        #expect(plugin.abiVersion == JSONModelPlugin.abiVersion)
        #expect(plugin.modelClasses == ["Vehicle", "Car", "Truck"])
        #expect(plugin.schemaModels == ["Fleet"])
        #expect(plugin.converters == 1)

        // Compiled classes from the plugin are this program's JSONModel subclasses.
        let vehicle = try #require(registry.modelType(named: "Vehicle"))
        let carType = try #require(registry.modelType(named: "Car"))
        #expect(String(reflecting: carType) == "ExampleModelsPlugin.Car")
        #expect(ObjectIdentifier(try #require(_getSuperclass(carType))) == ObjectIdentifier(vehicle))

        // Polymorphic by name: "Vehicle" gives a Car or a Truck, chosen by the plugin's code.
        let car = try registry.makeModel(named: "Vehicle", json: Self.json(#"{"id": 1, "kind": "car", "seats": 2}"#))
        #expect(ObjectIdentifier(type(of: car)) == ObjectIdentifier(carType))
        #expect(car.jsonModel.modelName == "Car")
        let seats: Int = car.jsonModel.dynamic.seats
        let wheels: Int = car.jsonModel.dynamic.wheels
        #expect(seats == 2 && wheels == 4)
        #expect("\(car)".hasPrefix("Car("))

        let truck = try registry.makeModel(named: "Vehicle", json: Self.json(#"{"id": 2, "kind": "truck", "wheels": 6, "payload_kg": 5000}"#))
        #expect(truck.jsonModel.modelName == "Truck")
        let payload: Double = truck.jsonModel.dynamic.payload
        let truckWheels: Int = truck.jsonModel.dynamic.wheels
        #expect(payload == 5000 && truckWheels == 6)

        // The plugin's schema model, over its classes, with a value through its converter.
        let fleet = try registry.makeModel(
            named: "Fleet",
            json: Self.json(#"""
                {"owner": "Ann", "budget": 125050,
                 "vehicles": [{"id": 1, "kind": "car"}, {"id": 2, "kind": "truck", "payload_kg": 900}, {"id": 3, "kind": "bike"}],
                 "flagship": {"id": 2, "kind": "truck"}}
                """#))
        #expect(fleet.jsonModel.modelName == "Fleet")
        let budget: Double = fleet.jsonModel.dynamic.budget
        #expect(budget == 1250.5)
        let owner: String = fleet.jsonModel.dynamic.owner
        #expect(owner == "Ann")
        // A lazy ModelArray<Vehicle>; the program cannot name Vehicle, so it reads the elements as JSONModels.
        let vehicles = try #require(models(in: fleet.jsonModel.value(forProperty: "vehicles")))
        #expect(vehicles.map(\.jsonModel.modelName) == ["Car", "Truck", "Vehicle"])
        let flagship = try #require(fleet.jsonModel.value(forProperty: "flagship") as? JSONModel)
        #expect(flagship.jsonModel.modelName == "Truck")
        #expect(fleet.jsonModel.diagnostics.isEmpty)

        // Writes go back through the converter.
        let cheaper = fleet.jsonModel.mutate { $0.jsonModel.dynamic.budget = 99.99 }
        #expect(cheaper.jsonModel.json()["budget"] == 9999)
    }

    /// The hand build compiles the typed members the JSONModelAccessors plugin gives the
    /// example in SwiftPM's build; the plugin's own code may read through them.
    @Test func theHandBuildCompilesTheExamplesTypedMembers() throws {
        let source = try String(contentsOf: plugins.exampleAccessors, encoding: .utf8)
        #expect(source.contains("extension Vehicle {\n    var id: Int {\n"), "\(source)")
        #expect(source.contains("    var wheels: Int {\n"))
        #expect(source.contains("extension Car {\n    var seats: Int {\n"))
        #expect(source.contains("extension Truck {\n    var payload: Double {\n"))
        #expect(!source.contains("DynamicMembers"))
    }

    @Test func aSecondLoadReturnsTheFirstAndCallsNothing() throws {
        let registry = ModelRegistry()
        let first = try registry.loadPlugin(at: plugins.example)
        #expect(registry.plugins.entryCalls == 1)
        let again = try registry.loadPlugin(at: plugins.example)
        #expect(again == first)
        // Another path to the same file is the same library.
        let link = try plugins.folder.appendingPathComponent("link-\(UUID().uuidString).so")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: plugins.example)
        #expect(try registry.loadPlugin(at: link) == first)
        #expect(registry.plugins.entryCalls == 1)
        #expect(registry.plugins.loaded.count == 1)

        // Another registry gets its own registrations from the same library.
        let other = ModelRegistry()
        let second = try other.loadPlugin(at: plugins.example)
        #expect(second == first)
        #expect(other.plugins.entryCalls == 1)
        #expect(ObjectIdentifier(try #require(other.modelType(named: "Car")))
            == ObjectIdentifier(try #require(registry.modelType(named: "Car"))))
    }

    @Test func aCopyOfThePluginCannotTakeItsNames() throws {
        let registry = ModelRegistry()
        try registry.loadPlugin(at: plugins.example)
        let vehicle = try #require(registry.modelType(named: "Vehicle"))
        let copy = try plugins.exampleCopy
        do {
            try registry.loadPlugin(at: copy)
            Issue.record("the copy was loaded")
        } catch {
            guard case .registrationFailed(_, let problems) = error else { throw error }
            #expect(problems.contains("Vehicle: the name is taken by the model class ExampleModelsPlugin.Vehicle"), "\(problems)")
            #expect(problems.contains(#"the converter name "cents": a converter is registered for it already"#), "\(problems)")
            #expect(problems.count == 4, "\(problems)")
        }
        #expect(ObjectIdentifier(try #require(registry.modelType(named: "Vehicle"))) == ObjectIdentifier(vehicle))
        #expect(registry.plugins.loaded.count == 1)
    }

    @Test(.enabled(
        if: PluginBuilder.hasSelfContained, "needs a plugin with its own JSONModelKit: SwiftPM's product or the build's objects"))
    func aPluginWithItsOwnJSONModelKitIsRefused() throws {
        let selfContained = try #require(try plugins.selfContained)
        let registry = ModelRegistry()
        #expect(throws: PluginLoadError.separateJSONModelKit(path: selfContained.path)) {
            try registry.loadPlugin(at: selfContained)
        }
        #expect(registry.modelType(named: "Vehicle") == nil)
        #expect(registry.schemaMetadata(named: "Fleet") == nil)
        #expect(registry.converters.converter(named: "cents") == nil)
    }

    @Test func missingFileAndNotALibrary() throws {
        let registry = ModelRegistry()
        let missing = try plugins.folder.appendingPathComponent("nothing-here.so")
        #expect(throws: PluginLoadError.fileNotFound(path: missing.path)) { try registry.loadPlugin(at: missing) }

        let text = try plugins.folder.appendingPathComponent("text-\(UUID().uuidString).so")
        try Data("not a library".utf8).write(to: text)
        do {
            try registry.loadPlugin(at: text)
            Issue.record("a text file was loaded")
        } catch {
            guard case .cannotOpen(let path, let reason) = error else { throw error }
            #expect(path == text.path)
            #expect(!reason.isEmpty)
            #expect("\(error)".hasPrefix("cannot load plugin \(text.path): "))
        }
    }

    @Test func missingEntryPoint() throws {
        let registry = ModelRegistry()
        let path = try plugins.noEntry
        #expect(throws: PluginLoadError.missingEntryPoint(path: path.path, symbol: "jsonmodelkit_plugin_entry")) {
            try registry.loadPlugin(at: path)
        }
        #expect(registry.plugins.entryCalls == 0)
    }

    @Test func versionMismatchRegistersNothing() throws {
        let registry = ModelRegistry()
        // A plugin built for a newer ABI.
        let newer = try plugins.newerABI
        #expect(throws: PluginLoadError.abiVersionMismatch(path: newer.path, plugin: JSONModelPlugin.abiVersion + 1, host: JSONModelPlugin.abiVersion)) {
            try registry.loadPlugin(at: newer)
        }
        #expect(registry.modelType(named: "Gadget") == nil)
        #expect(registry.converters.converter(named: "gadgetColor") == nil)
        // A host of another version, with the example plugin: the plugin does not register.
        let example = try plugins.example
        #expect(throws: PluginLoadError.abiVersionMismatch(path: example.path, plugin: JSONModelPlugin.abiVersion, host: 99)) {
            try registry.loadPlugin(at: example, hostABIVersion: 99)
        }
        #expect(registry.modelType(named: "Vehicle") == nil)
        #expect(registry.schemaMetadata(named: "Fleet") == nil)
        #expect(registry.converters.converter(named: "cents") == nil)
        // Nothing was kept, so the right version loads it afterwards.
        #expect(try registry.loadPlugin(at: example) == ["Vehicle", "Car", "Truck", "Fleet"])
    }

    @Test func invalidRegistrationsRegisterNothing() throws {
        let registry = ModelRegistry()
        let faulty = try plugins.faulty
        do {
            try registry.loadPlugin(at: faulty)
            Issue.record("the faulty plugin was loaded")
        } catch {
            guard case .registrationFailed(let path, let problems) = error else { throw error }
            #expect(path == faulty.path)
            #expect(problems.count == 2, "\(problems)")
            #expect(problems.contains { $0.hasPrefix("Gadget.name: ") }, "\(problems)")
            #expect(problems.contains("schema error: \(faulty.path): Widget.part: unknown type \"Gizmo\""), "\(problems)")
        }
        #expect(registry.modelType(named: "Gadget") == nil)
        #expect(registry.schemaMetadata(named: "Widget") == nil)
        #expect(registry.converters.converter(named: "gadgetColor") == nil)
        #expect(registry.plugins.loaded.isEmpty)
    }

    @Test func anErrorThrownByThePluginRegistersNothing() throws {
        let registry = ModelRegistry()
        let throwing = try plugins.throwing
        #expect(throws: PluginLoadError.registrationFailed(path: throwing.path, problems: ["the plugin's configuration is missing"])) {
            try registry.loadPlugin(at: throwing)
        }
        #expect(registry.modelType(named: "Gadget") == nil)
        #expect(registry.converters.converter(named: "gadgetColor") == nil)
    }

    @Test func pluginNamesMustBeFree() throws {
        let registry = ModelRegistry()
        try registry.register(ModelSchema(json: #"{"models": [{"name": "Truck", "properties": []}]}"#))
        let example = try plugins.example
        do {
            try registry.loadPlugin(at: example)
            Issue.record("loaded over a taken name")
        } catch {
            guard case .registrationFailed(_, let problems) = error else { throw error }
            #expect(problems == ["Truck: the name is taken by a schema model"])
        }
        #expect(registry.modelType(named: "Vehicle") == nil)
        #expect(registry.schemaMetadata(named: "Fleet") == nil)
    }

    /// A plugin adds converters; one that would replace the host's is refused, with nothing of
    /// it registered, and the host's converter stays.
    @Test func aPluginCannotReplaceTheHostsNamedConverter() throws {
        let registry = ModelRegistry()
        registry.register(JSONConverters.Case(upper: true), named: "cents")
        let example = try plugins.example
        #expect(throws: PluginLoadError.registrationFailed(
            path: example.path, problems: [#"the converter name "cents": a converter is registered for it already"#])) {
            try registry.loadPlugin(at: example)
        }
        #expect(registry.modelType(named: "Vehicle") == nil)
        #expect(registry.schemaMetadata(named: "Fleet") == nil)
        #expect(registry.converters.converter(named: "cents")?.valueType == String.self)
        #expect(registry.plugins.loaded.isEmpty)
    }

    /// A program linked without `--export-dynamic` cannot load a plugin that leaves
    /// JSONModelKit's symbols to it, and says why.
    @Test(.enabled(if: PluginBuilder.hasObjects, "needs the build's objects of JSONModelKit beside the test program"))
    func aHostThatDoesNotExportItsSymbolsGetsAClearError() throws {
        let plugins = try plugins
        let source = plugins.folder.appendingPathComponent("host-\(UUID().uuidString).swift")
        try """
            import Foundation
            import JSONModelKit
            do {
                try ModelRegistry().loadPlugin(at: URL(fileURLWithPath: CommandLine.arguments[1]))
                print("loaded")
            } catch {
                print(error)
            }
            """.write(to: source, atomically: true, encoding: .utf8)
        let host = source.deletingPathExtension()
        let build = try BuildProducts.run(plugins.toolchain.swiftc, ["-swift-version", "6", "-I", plugins.toolchain.modules.path]
            + plugins.toolchain.flags + [source.path] + plugins.toolchain.objects.map(\.path) + ["-o", host.path])
        try #require(build.status == 0, "\(build.output)")
        let run = try BuildProducts.run(host, [plugins.example.path])
        #expect(run.output.contains("undefined symbol"), "\(run.output)")
        #expect(run.output.contains("does not export JSONModelKit's symbols"), "\(run.output)")
    }

    /// The hint recognises both loaders' words for a missing symbol of the library, and only those.
    @Test func theExportHintReadsGlibcAndDyld() {
        let glibc = "/p/libX.so: undefined symbol: $s12JSONModelKit0A5ModelCMn"
        let dyld = "dlopen(/p/libX.dylib, 0x0002): Symbol not found: _$s16JSONModelKitCore12JSONDocumentCMn\n"
            + "  Referenced from: <UUID> /p/libX.dylib\n  Expected in: <UUID> /p/host"
        #expect(PluginTable.exportHint(for: glibc).contains("does not export JSONModelKit's symbols"))
        #expect(PluginTable.exportHint(for: dyld).contains("-export_dynamic on macOS"))
        #expect(PluginTable.exportHint(for: "undefined symbol: $s5Other1XCMn") == "")
        #expect(PluginTable.exportHint(for: "Symbol not found: _strlcpy") == "")
        #expect(PluginTable.exportHint(for: "not a shared object: 12JSONModelKit") == "")
    }
}

/// The models of a collection property (a lazy `ModelArray` of any element class), or nil.
func models(in value: Any?) -> [JSONModel]? {
    func elements(_ sequence: some Sequence) -> [JSONModel] { sequence.compactMap { $0 as? JSONModel } }
    guard let sequence = value as? any Sequence else { return nil }
    return elements(sequence)
}

/// What the Nesting test plugin's entry point does when it runs: which library it loads, into
/// which registry, from which thread; and what that load gave.
///
/// The plugin finds ``nestingMode()`` and ``nestedLoad()`` by name in this (exporting) program.
enum NestedLoad {
    struct Request: Sendable {
        let registry: ModelRegistry
        let library: URL
        /// From a helper thread the entry point waits for; else on the entry point's own thread.
        let fromHelperThread: Bool
    }

    static let request = Locked<Request?>(nil)
    static let outcome = Locked<Result<[String], PluginLoadError>?>(nil)

    /// Sets what the next entry call does; clears the last outcome.
    static func expect(_ next: Request?) {
        request.withLock { $0 = next }
        outcome.withLock { $0 = nil }
    }
}

/// 0: load nothing; 1: from a helper thread; 2: on the entry point's thread.
@_cdecl("jsonmodelkit_tests_nesting_mode")
public func nestingMode() -> Int32 {
    guard let request = NestedLoad.request.withLock({ $0 }) else { return 0 }
    return request.fromHelperThread ? 1 : 2
}

/// Loads the requested library into the requested registry and keeps the outcome.
@_cdecl("jsonmodelkit_tests_nested_load")
public func nestedLoad() -> Int32 {
    guard let request = NestedLoad.request.withLock({ $0 }) else { return 0 }
    let result: Result<[String], PluginLoadError>
    do {
        result = .success(try request.registry.loadPlugin(at: request.library))
    } catch {
        result = .failure(error)
    }
    NestedLoad.outcome.withLock { $0 = result }
    return 1
}

/// Plugin code runs with no lock of the loader held: an entry point that loads a plugin from a
/// helper thread and waits for it finishes. Serialized: the Nesting plugin's instructions are global.
@Suite("Plugins: loads from entry points", .serialized, .enabled(if: PluginBuilder.available), .timeLimit(.minutes(10)))
struct PluginNestedLoadTests {
    var plugins: PluginBuilder.Plugins {
        get throws { try PluginBuilder.plugins.get() }
    }

    @Test func anEntryPointLoadsAnotherPluginFromAHelperThreadAndWaits() throws {
        let plugins = try plugins
        let registry = ModelRegistry()
        NestedLoad.expect(.init(registry: registry, library: plugins.example, fromHelperThread: true))
        defer { NestedLoad.expect(nil) }
        // A deadlock here would hang: the suite's time limit is the guard.
        let nesting = try registry.loadPlugin(at: plugins.nesting)
        #expect(nesting == ["Gadget"])
        let inner = try #require(NestedLoad.outcome.withLock { $0 }).get()
        #expect(inner == ["Vehicle", "Car", "Truck", "Fleet"])
        #expect(registry.modelType(named: "Vehicle") != nil && registry.modelType(named: "Gadget") != nil)
        #expect(Set(registry.plugins.loaded.map(\.path)) == [plugins.example.path, plugins.nesting.path])
    }

    /// The helper's load of the library being loaded waits for that load, which waits for the
    /// helper: the helper gives up after the wait limit with a clear error, and both finish.
    @Test func anEntryPointThatWaitsForALoadOfItsOwnLibraryFinishes() throws {
        let plugins = try plugins
        let registry = ModelRegistry()
        registry.plugins.waitLimit = 0.5
        NestedLoad.expect(.init(registry: registry, library: plugins.nesting, fromHelperThread: true))
        defer { NestedLoad.expect(nil) }
        let nesting = try registry.loadPlugin(at: plugins.nesting)
        #expect(nesting == ["Gadget"])
        let inner = try #require(NestedLoad.outcome.withLock { $0 })
        #expect(throws: PluginLoadError.loadInProgress(path: plugins.nesting.path)) { try inner.get() }
        #expect("\(PluginLoadError.loadInProgress(path: "p.so"))".hasPrefix("cannot load plugin p.so: another thread's load"))
        #expect(registry.plugins.entryCalls == 1)
        // Loaded now: a later load returns it.
        NestedLoad.expect(nil)
        #expect(try registry.loadPlugin(at: plugins.nesting) == nesting)
    }

    @Test func anEntryPointCannotLoadPluginsOnItsOwnThread() throws {
        let plugins = try plugins
        let registry = ModelRegistry()
        NestedLoad.expect(.init(registry: registry, library: plugins.example, fromHelperThread: false))
        defer { NestedLoad.expect(nil) }
        #expect(try registry.loadPlugin(at: plugins.nesting) == ["Gadget"])
        let inner = try #require(NestedLoad.outcome.withLock { $0 })
        #expect(throws: PluginLoadError.registrationFailed(
            path: plugins.example.path, problems: ["a plugin cannot load plugins from its entry point"])) { try inner.get() }
        #expect(registry.modelType(named: "Vehicle") == nil)
    }

    @Test func concurrentLoadsOfOneLibraryCallItsEntryPointOnce() throws {
        let plugins = try plugins
        let registry = ModelRegistry()
        let results = Locked<[[String]]>([])
        let failures = Locked<[PluginLoadError]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do throws(PluginLoadError) {
                let plugin = try registry.loadPlugin(at: plugins.example)
                results.withLock { $0.append(plugin) }
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(Set(results.withLock { $0 }).count == 1)
        #expect(registry.plugins.entryCalls == 1)
    }
}

/// A plugin names the models its converters are for: the registrar turns the name of a class
/// (the plugin's or the registry's) into the class, and any other name into a schema model's.
@Suite("Plugin registrar")
struct PluginRegistrarTests {
    @Test func convertersForANamedModelFindItsClassOrItsSchemaModel() {
        let registry = ModelRegistry()
        let registrar = PluginRegistrar(pluginPath: "test.so")
        let upper = JSONConverters.Case(upper: true)
        registrar.register(upper, forProperty: "title", ofModelNamed: "Conv")
        registrar.register(upper, forProperty: "title", ofModelNamed: "Sheet")
        registrar.register(upper, for: String.self, inModelNamed: "Conv")
        registrar.register(upper, for: String.self, inModelNamed: "Sheet")
        registrar.register(upper, for: String.self)
        let classes: [String: JSONModel.Type] = ["Conv": ConvBase.self]
        #expect(registry.converters.add(registrar.converters.map { $0 { classes[$0] } }) == nil)

        let table = registry.converters
        let conv = ModelKey.type(ObjectIdentifier(ConvBase.self))
        let string = ObjectIdentifier(String.self)
        #expect(table.converter(forProperty: "title", in: conv) != nil)
        #expect(table.converter(forProperty: "title", in: .schema("Sheet")) != nil)
        #expect(table.converter(forProperty: "title", in: .schema("Conv")) == nil)
        #expect(table.converter(forType: string, in: conv) != nil)
        #expect(table.converter(forType: string, in: .schema("Sheet")) != nil)
        #expect(table.converter(forType: string, in: nil) != nil)
    }

    /// The registry takes a plugin's converters all or none: none replaces a converter, and
    /// none repeats another's key.
    @Test func aPluginsConvertersReplaceNothing() {
        let registry = ModelRegistry()
        let upper = JSONConverters.Case(upper: true)
        registry.register(upper, for: String.self, in: ConvBase.self)
        registry.register(upper, forProperty: "title", ofModelNamed: "Sheet")
        let classes: [String: JSONModel.Type] = ["Conv": ConvBase.self]
        func registrations(_ build: (PluginRegistrar) -> Void) -> [ConverterTable.Registration] {
            let registrar = PluginRegistrar(pluginPath: "test.so")
            build(registrar)
            return registrar.converters.map { $0 { classes[$0] } }
        }
        let taken = registrations {
            $0.register(upper, named: "shout")
            $0.register(upper, for: String.self, inModelNamed: "Conv")
            $0.register(upper, forProperty: "title", ofModelNamed: "Sheet")
            $0.register(upper, for: String.self)
            $0.register(upper, for: String.self)
        }
        #expect(registry.converters.add(taken) == [
            "the type String in the model Conv", "the property Sheet.title", "the type String in every model",
        ])
        #expect(registry.converters.converter(named: "shout") == nil)
        #expect(registry.converters.converter(forType: ObjectIdentifier(String.self), in: nil) == nil)

        let free = registrations {
            $0.register(upper, named: "shout")
            $0.register(upper, for: String.self, inModelNamed: "Sheet")
            $0.register(upper, forProperty: "title", ofModelNamed: "Conv")
        }
        #expect(registry.converters.add(free) == nil)
        #expect(registry.converters.converter(named: "shout") != nil)
        // The library's own names, and what `shared` holds, are not a plugin's to take either.
        #expect(registry.converters.conflicts(registrations { $0.register(upper, named: "iso8601") }) == [
            #"the converter name "iso8601""#,
        ])
        #expect(registry.converters.conflicts(free) == [
            #"the converter name "shout""#, "the type String in the model Sheet", "the property Conv.title",
        ])
    }

    @Test func aSchemaDefaultThroughThePluginsOwnConverterIsAProblem() throws {
        let registrar = PluginRegistrar(pluginPath: "test.so")
        registrar.register(JSONConverters.Case(upper: true), named: "shout")
        registrar.register(try ModelSchema(json: #"""
            {"models": [{"name": "Fleet", "properties": [
              {"name": "motto", "type": "String", "converter": "shout", "default": "go"},
              {"name": "plain", "type": "String", "converter": "shout"},
              {"name": "other", "type": "String", "converter": "uppercase", "default": "x"}]}]}
            """#))
        let registrations = registrar.converters.map { $0 { _ in nil } }
        #expect(registrar.defaultsThroughOwnConverters(registrations) == [
            #"Fleet.motto: a default cannot be read through the plugin's own converter "shout", which the registry has only once the plugin is loaded"#,
        ])
    }
}
