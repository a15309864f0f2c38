// swift-tools-version: 6.2
import PackageDescription

// Settings shared by every target, in one place.
// - ExistentialAny: https://github.com/swiftlang/swift-evolution/blob/main/proposals/0335-existential-any.md
// - MemberImportVisibility: https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
let upcomingFeatures = ["ExistentialAny", "MemberImportVisibility"]
let swiftSettings: [SwiftSetting] = upcomingFeatures.map { .enableUpcomingFeature($0) }

let package = Package(
    name: "JSONModelKit",
    // The releases apps commonly still support. Newer APIs are used behind `#available`, which
    // Tools/check-availability verifies. watchOS is left out: its devices are 32-bit (arm64_32),
    // and a model's cache packs a type's address and an offset into one 64-bit word.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "JSONModelKit", targets: ["JSONModelKit"]),
        // The JSON core alone: parsing, JSONDocument, JSONNode, JSONValue, the writer, JSONPath.
        .library(name: "JSONModelKitCore", targets: ["JSONModelKitCore"]),
        // Foundation's object tree (NSNumber, NSNull, …) to and from JSONValue; links all of Foundation.
        .library(name: "JSONModelKitFoundation", targets: ["JSONModelKitFoundation"]),
        .executable(name: "jsonmodel", targets: ["jsonmodel"]),
        // Typed members for model classes, generated from their registration blocks.
        .plugin(name: "JSONModelAccessors", targets: ["JSONModelAccessors"]),
    ],
    dependencies: [],
    targets: [
        // Atomic words for the platforms whose standard library has no `Atomic` (before macOS 15 and
        // iOS 18): a C header of inline functions.
        .target(name: "JSONModelKitAtomics"),
        // The scanner's check of UTF-8 with AVX2, on the x86-64 processors that have it: C, which
        // can compile one function for a wider instruction set than the rest of the program.
        .target(name: "JSONModelKitUTF8"),
        .target(
            name: "JSONModelKitCore", dependencies: ["JSONModelKitAtomics", "JSONModelKitUTF8"], swiftSettings: swiftSettings),
        // The names a declared property may not take, for the library and the generator; no dependencies.
        .target(name: "JSONModelNames", swiftSettings: swiftSettings),
        // Re-exports JSONModelKitCore: `import JSONModelKit` sees the JSON core's API too.
        .target(name: "JSONModelKit", dependencies: ["JSONModelKitCore", "JSONModelNames"], swiftSettings: swiftSettings),
        .target(name: "JSONModelKitFoundation", dependencies: ["JSONModelKit"], swiftSettings: swiftSettings),
        // Models and schemas inferred from sample JSON: for `jsonmodel infer`/`generate` and the tests; in
        // no product, so that an app that reads models does not carry a schema inferrer.
        .target(name: "JSONModelInference", dependencies: ["JSONModelKit"], swiftSettings: swiftSettings),
        // Runs the conformance cases of Specs/: for `jsonmodel check-specs` and the tests; in no product.
        .target(name: "JSONModelSpecs", dependencies: ["JSONModelKit"], swiftSettings: swiftSettings),
        // Reads registration blocks and writes typed members: for the build plugin and `jsonmodel accessors`.
        .target(name: "AccessorGeneration", dependencies: ["JSONModelNames"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "jsonmodel-accessors", dependencies: ["AccessorGeneration"], path: "Tools/jsonmodel-accessors",
            swiftSettings: swiftSettings),
        .plugin(
            name: "JSONModelAccessors", capability: .buildTool(), dependencies: ["jsonmodel-accessors"],
            path: "Tools/JSONModelAccessors"),
        .executableTarget(
            name: "jsonmodel", dependencies: ["JSONModelKit", "JSONModelInference", "JSONModelSpecs", "AccessorGeneration"], path: "Tools/jsonmodel",
            swiftSettings: swiftSettings, plugins: ["JSONModelAccessors"]),
        .executableTarget(
            name: "jsonmodel-bench", dependencies: ["JSONModelKit", "JSONModelKitFoundation"], path: "Tools/jsonmodel-bench",
            swiftSettings: swiftSettings, plugins: ["JSONModelAccessors"]),
        .target(
            name: "ExampleModelsPlugin", dependencies: ["JSONModelKit"], swiftSettings: swiftSettings,
            plugins: ["JSONModelAccessors"]),
        // What the test targets share (test targets cannot share sources): the build and toolchain,
        // child test processes, shared data, snapshots, the tool's runner; in no product.
        .target(name: "JSONModelKitTestSupport", dependencies: ["JSONModelKitCore"], swiftSettings: swiftSettings),
        // The JSON core alone: parsing, scanning, documents, values, paths, the writer, the
        // JSONTestSuite corpus and the benchmark documents.
        .testTarget(
            name: "JSONModelKitCoreTests", dependencies: ["JSONModelKitCore", "JSONModelKitTestSupport"],
            path: "Tests/JSONModelKitCoreTests", swiftSettings: swiftSettings),
        // Models: reading, writing, conversion, dates, enums, collections, descriptions, diagnostics,
        // schemas, plugins (their typed members generated as the plugin does), streams, stress.
        .testTarget(
            name: "JSONModelKitTests",
            dependencies: [
                "JSONModelKit", "JSONModelKitCore", "JSONModelKitFoundation", "JSONModelInference", "AccessorGeneration",
                "JSONModelKitTestSupport",
            ],
            path: "Tests/JSONModelKitTests",
            exclude: ["__Snapshots__"],  // expected texts the tests read by path
            swiftSettings: swiftSettings,
            // The plugin tests load plugins that leave JSONModelKit's symbols to the test program,
            // which must export them. Test targets are in no product, so dependents are unaffected.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]),
        // The generators (typed members; models and schemas inferred from samples) and the `jsonmodel`
        // tool, run as a program: it is found beside the test program, built by `swift build` as by
        // `swift test`.
        .testTarget(
            name: "GeneratorAndToolTests",
            dependencies: ["JSONModelKit", "JSONModelInference", "AccessorGeneration", "JSONModelKitTestSupport"],
            path: "Tests/GeneratorAndToolTests",
            exclude: ["__Snapshots__", "Fixtures"],  // expected texts and samples the tests read by path
            swiftSettings: swiftSettings),
        // Through every layer: the conformance cases of Specs/ (and their runner), and random documents
        // read, written and read back; the one target that needs JSONModelSpecs.
        .testTarget(
            name: "EndToEndTests", dependencies: ["JSONModelKit", "JSONModelSpecs", "JSONModelKitTestSupport"],
            path: "Tests/EndToEndTests", swiftSettings: swiftSettings),
        // Models read through the members the JSONModelAccessors plugin generates, and the generator itself.
        .testTarget(
            name: "TypedModelTests",
            dependencies: ["JSONModelKit", "JSONModelInference", "AccessorGeneration", "JSONModelKitTestSupport"],
            path: "Tests/TypedModelTests",
            exclude: ["CompileFail"],  // models and clients the tests typecheck with swiftc, some of them wrong
            swiftSettings: swiftSettings, plugins: ["JSONModelAccessors"]),
    ],
    swiftLanguageModes: [.v6]
)
