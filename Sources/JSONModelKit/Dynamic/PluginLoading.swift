#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("PluginLoading needs the C library: no Glibc, Musl or Darwin module here")
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

extension ModelRegistry {
    /// The plugins loaded into this registry.
    var plugins: PluginTable { attachment(PluginTable.self) }

    /// Loads a plugin: a shared library whose entry point registers models, converters and
    /// schemas (see ``JSONModelPlugin``), all or none.
    ///
    /// Opens the library (`dlopen`), calls its `jsonmodelkit_plugin_entry` with this
    /// JSONModelKit's ABI version and a ``PluginRegistrar``, then checks what the plugin
    /// registered (names free, class declarations valid, schemas valid against this registry
    /// and the plugin's classes) and registers it all, or nothing.
    ///
    /// ```swift
    /// try ModelRegistry.shared.loadPlugin(at: URL(fileURLWithPath: "plugins/libExampleModelsPlugin.so"))
    /// let car = try ModelRegistry.shared.makeModel(named: "Vehicle", json: data)   // a Car
    /// ```
    ///
    /// Loading a library that is already loaded into this registry (by any path that names
    /// the same file) returns what the first load returned and calls nothing. A load that
    /// failed leaves nothing registered, so a later load of the same library runs its entry
    /// point again. Unloading is not supported: libraries stay mapped for the life of the
    /// process, even after a failed load, because Swift types cannot leave a running process.
    ///
    /// The host must export JSONModelKit's symbols and the plugin must leave them undefined;
    /// the Schemas and plugins article of the documentation gives the build recipe. Compiled classes take their converters from
    /// ``shared``, so load plugins whose classes use converters into ``shared``.
    ///
    /// Plugins are for macOS and Linux. iOS, tvOS, watchOS and visionOS allow an app to run only
    /// the code it was signed and reviewed with, so the function is unavailable there; models
    /// defined at run time by schemas (``loadSchemas(at:)``) work everywhere.
    ///
    /// - Parameter url: The shared library's path.
    /// - Returns: The names of the models the plugin registered: its classes, then its schemas'
    ///   models, in registration order.
    /// - Throws: ``PluginLoadError``; nothing was registered.
    @available(iOS, unavailable, message: "apps may run only the code they were signed with; use schemas")
    @available(tvOS, unavailable, message: "apps may run only the code they were signed with; use schemas")
    @available(watchOS, unavailable, message: "apps may run only the code they were signed with; use schemas")
    @available(visionOS, unavailable, message: "apps may run only the code they were signed with; use schemas")
    @discardableResult
    public func loadPlugin(at url: URL) throws(PluginLoadError) -> [String] {
        try loadPlugin(at: url, hostABIVersion: JSONModelPlugin.abiVersion).modelNames
    }

    /// ``loadPlugin(at:)`` with the ABI version to present; tests present others.
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    ///
    /// No lock is held while plugin code runs (the library's initializers, its entry point, its
    /// classes' registration blocks), so an entry point may start a thread that loads another
    /// plugin and wait for it. The table marks the library as loading meanwhile: a load of the
    /// same library from another thread waits for the first to finish, at most
    /// ``PluginTable/waitLimit`` (an entry point that waits for a load of its own library would
    /// otherwise never finish), then throws ``PluginLoadError/loadInProgress(path:)``.
    func loadPlugin(at url: URL, hostABIVersion: Int32) throws(PluginLoadError) -> LoadedPlugin {
        let path = url.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        guard !PluginTable.insideEntryPoint else {
            throw .registrationFailed(path: path, problems: ["a plugin cannot load plugins from its entry point"])
        }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw .cannotOpen(path: path, reason: reason + PluginTable.exportHint(for: reason))
        }
        let key = UInt(bitPattern: handle)
        if let first = try plugins.begin(key, path: path) { return first }
        var loaded: LoadedPlugin?
        defer { plugins.finish(key, loaded: loaded) }
        guard let symbol = dlsym(handle, JSONModelPlugin.entryPointName) else {
            throw .missingEntryPoint(path: path, symbol: JSONModelPlugin.entryPointName)
        }
        let entry = unsafeBitCast(symbol, to: JSONModelPlugin.EntryPoint.self)
        let registrar = PluginRegistrar(pluginPath: path)
        plugins.countEntryCall()
        let answer = PluginTable.$insideEntryPoint.withValue(true) {
            withExtendedLifetime(registrar) {
                entry(hostABIVersion, Unmanaged.passUnretained(registrar).toOpaque())
            }
        }
        if answer == JSONModelPlugin.unrecognizedRegistrar { throw .separateJSONModelKit(path: path) }
        guard answer == hostABIVersion else {
            throw .abiVersionMismatch(path: path, plugin: answer, host: hostABIVersion)
        }
        if let failure = registrar.failure { throw .registrationFailed(path: path, problems: [failure]) }
        let plugin = try commit(registrar, abiVersion: answer)
        loaded = plugin
        return plugin
    }

    /// Checks everything a plugin registered, then registers it all; or throws and registers nothing.
    private func commit(_ registrar: PluginRegistrar, abiVersion: Int32) throws(PluginLoadError) -> LoadedPlugin {
        let path = registrar.pluginPath
        var problems: [String] = []
        var classes: [String: JSONModel.Type] = [:]
        for (name, type) in registrar.classes {
            let display = String(reflecting: type)
            if let other = classes[name], other != type {
                problems.append("\(name): registered twice, for \(String(reflecting: other)) and \(display)")
                continue
            }
            classes[name] = type
            if let existing = modelType(named: name), existing != type {
                problems.append("\(name): the name is taken by the model class \(String(reflecting: existing))")
            } else if schemaMetadata(named: name) != nil {
                problems.append("\(name): the name is taken by a schema model")
            }
            // Built apart from the registry: storing it would register the name on failure too.
            problems += ModelRegistry.buildMetadata(for: type).problems.map { "\($0)" }
        }
        let batch = SchemaBatch(models: registrar.schemas.flatMap { schema in
            schema.models.map { SchemaBatch.Entry(model: $0, file: path) }
        })
        var prepared: SchemaBatch.Prepared = []
        do {
            prepared = try batch.prepare(for: self, classes: classes)
        } catch {
            problems += error.problems.map { "\($0)" }
        }
        // A plugin adds converters and never replaces one: the host's, another plugin's or the
        // library's; nor one of `shared`, which lookups in this registry reach after its own.
        let registrations = { (lookup: (String) -> JSONModel.Type?) in registrar.converters.map { $0(lookup) } }
        // A model is named as it is registered. A name that is neither a class nor a schema
        // model here would file the converter under a schema model that never comes, while the
        // host's class of that name, registered on its first use, looked elsewhere: refused,
        // rather than a converter that silently never applies.
        let ownSchemaModels = Set(prepared.map(\.metadata.modelName))
        var unknownModels: Set<String> = []
        let resolved = registrations { name in
            let found = classes[name] ?? self.modelType(named: name)
            if found == nil, !ownSchemaModels.contains(name), self.schemaMetadata(named: name) == nil {
                unknownModels.insert(name)
            }
            return found
        }
        problems += unknownModels.sorted().map { name in
            "\(name): no model of this name is registered for the plugin's converter; register the host's class "
                + "(ModelRegistry.register(_:name:)) before loading the plugin"
        }
        var taken = converters.conflicts(resolved)
        if self !== ModelRegistry.shared {
            taken += ModelRegistry.shared.converters.conflicts(resolved).filter { !taken.contains($0) }
        }
        problems += taken.map { "\($0): a converter is registered for it already" }
        problems += registrar.defaultsThroughOwnConverters(resolved)
        guard problems.isEmpty else { throw .registrationFailed(path: path, problems: problems) }
        // Loads of other libraries run concurrently: the names are checked again, and taken, at once.
        // The converters go in at that moment too, before the names: a model of the plugin's
        // read on another thread as soon as its name is there finds the converters it names
        // (registered after the names, a read in between took its property's default).
        let refusal = store(classes: registrar.classes, schemaModels: prepared) { registered in
            converters.add(registrations { classes[$0] ?? registered($0) })?
                .map { "\($0): a converter was registered for it meanwhile" }
        }
        switch refusal {
        case nil: break
        case .nameTaken(let name):
            throw .registrationFailed(path: path, problems: ["\(name): a model of this name was registered meanwhile"])
        case .refused(let problems):
            throw .registrationFailed(path: path, problems: problems)
        }
        return LoadedPlugin(
            path: path, abiVersion: abiVersion, modelClasses: registrar.classes.map(\.name),
            schemaModels: batch.entries.map(\.model.name), converters: registrar.converters.count)
    }
}

/// A plugin loaded into a registry.
struct LoadedPlugin: Sendable, Hashable {
    /// The library's path, as given to the first load.
    let path: String
    /// The ABI version the plugin was built for (equal to the host's).
    let abiVersion: Int32
    /// The names of the model classes it registered.
    let modelClasses: [String]
    /// The names of the schema models it registered.
    let schemaModels: [String]
    /// How many converters it registered.
    let converters: Int

    /// The names of every model it registered, classes first.
    var modelNames: [String] { modelClasses + schemaModels }
}

/// Why a plugin could not be loaded. Nothing it registered was kept.
public enum PluginLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file at the path.
    case fileNotFound(path: String)
    /// `dlopen` refused the file: not a shared library, a missing dependency, or symbols the
    /// host does not provide.
    case cannotOpen(path: String, reason: String)
    /// The library does not export the entry point.
    case missingEntryPoint(path: String, symbol: String)
    /// The plugin was built for another ABI version.
    case abiVersionMismatch(path: String, plugin: Int32, host: Int32)
    /// The plugin carries its own copy of JSONModelKit, so its classes are not the host's models.
    case separateJSONModelKit(path: String)
    /// The plugin's registrations were refused (name taken, invalid declarations or schemas),
    /// or its registration block threw.
    case registrationFailed(path: String, problems: [String])
    /// Another thread's load of the same library into the same registry did not finish within
    /// ten seconds: a slow entry point, or one that waits for this very load.
    case loadInProgress(path: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "cannot load plugin \(path): no such file"
        case .cannotOpen(let path, let reason):
            return "cannot load plugin \(path): \(reason)"
        case .missingEntryPoint(let path, let symbol):
            return "cannot load plugin \(path): it does not export the entry point \(symbol)"
        case .abiVersionMismatch(let path, let plugin, let host):
            return "cannot load plugin \(path): it was built for plugin ABI version \(plugin), this JSONModelKit has version \(host); rebuild it"
        case .separateJSONModelKit(let path):
            return "cannot load plugin \(path): it contains its own copy of JSONModelKit, so its models would not be this "
                + "program's; build it leaving JSONModelKit's symbols to the host (see the plugin recipe in the Schemas and plugins article of the documentation)"
        case .registrationFailed(let path, let problems):
            return "cannot load plugin \(path); nothing was registered:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
        case .loadInProgress(let path):
            return "cannot load plugin \(path): another thread's load of it has not finished (an entry point that "
                + "waits for a load of its own library never does); nothing was registered"
        }
    }
}

/// The plugins loaded into one registry, by library handle, and the loads under way.
///
/// Its lock is held only for this bookkeeping, never while plugin code runs: a load marks its
/// library as loading (``begin(_:path:)``), runs the plugin unlocked, then publishes the result
/// (``finish(_:loaded:)``). A second load of a library being loaded waits on the condition.
final class PluginTable: RegistryAttachment, @unchecked Sendable {
    // @unchecked Sendable: `contents` is only touched with `condition` locked.
    struct Contents {
        /// By `dlopen` handle, which is the same for every path that names one file.
        var loaded: [UInt: LoadedPlugin] = [:]
        /// The libraries whose entry point or commit is running, by handle.
        var loading: Set<UInt> = []
        /// How many times an entry point was called; for tests.
        var entryCalls = 0
        /// See ``PluginTable/waitLimit``.
        var waitLimit: Double = 10
    }

    /// A pthread mutex and condition, which the thread sanitizer sees.
    private let condition = Condition()
    private var contents = Contents()

    /// Whether this thread is running a plugin's entry point.
    @TaskLocal static var insideEntryPoint = false

    private func locked<Result>(_ body: (inout Contents) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body(&contents)
    }

    /// How long, in seconds, a load waits for another thread's load of the same library
    /// before it throws ``PluginLoadError/loadInProgress(path:)``; 10 unless a test sets it.
    var waitLimit: Double {
        get { locked { $0.waitLimit } }
        set { locked { $0.waitLimit = newValue } }
    }

    /// Starts a load of the library `key`: its first load's plugin when it is loaded (nil when
    /// the caller is to load it, marked as loading), waiting while another thread loads it.
    func begin(_ key: UInt, path: String) throws(PluginLoadError) -> LoadedPlugin? {
        condition.lock()
        defer { condition.unlock() }
        let start = Condition.now()
        while contents.loading.contains(key) {
            // The wait gives the lock up while it sleeps.
            if !condition.wait(seconds: contents.waitLimit, since: start), contents.loading.contains(key) {
                throw .loadInProgress(path: path)
            }
        }
        if let first = contents.loaded[key] { return first }
        contents.loading.insert(key)
        return nil
    }

    /// Ends the load ``begin(_:path:)`` started: records the plugin when it loaded, and wakes
    /// the loads waiting for it (which load the library themselves when this one failed).
    func finish(_ key: UInt, loaded: LoadedPlugin?) {
        locked { contents in
            contents.loading.remove(key)
            if let loaded { contents.loaded[key] = loaded }
        }
        condition.broadcast()
    }

    func countEntryCall() {
        locked { $0.entryCalls += 1 }
    }

    /// How many entry points were called; for tests.
    var entryCalls: Int { locked { $0.entryCalls } }

    /// The loaded plugins.
    var loaded: [LoadedPlugin] { locked { Array($0.loaded.values) } }

    /// Explains an unresolved symbol of JSONModelKit or of its JSON core (mangled names start
    /// with the module's: `$s12JSONModelKit`, `$s16JSONModelKitCore`): the host does not export
    /// them. glibc's loader says "undefined symbol", Darwin's dyld "Symbol not found".
    static func exportHint(for reason: String) -> String {
        let unresolved = reason.contains("undefined symbol") || reason.contains("Symbol not found")
        guard unresolved && (reason.contains("12JSONModelKit") || reason.contains("16JSONModelKitCore")) else { return "" }
        return " (the program does not export JSONModelKit's symbols to plugins: link it with "
            + "-Xlinker --export-dynamic on Linux, -Xlinker -export_dynamic on macOS; see the plugin recipe "
            + "in the Schemas and plugins article of the documentation)"
    }
}
