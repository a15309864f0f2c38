// swift-tools-version: 6.0
import PackageDescription

// Fuzz targets for libFuzzer, kept out of the main package: each links libFuzzer's `main`,
// which only exists when built with `--sanitize=fuzzer`. Run them with `Tools/fuzz/run`.
let package = Package(
    name: "JSONModelKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "JSONModelKit", path: "../..")],
    targets: ["FuzzParser", "FuzzModel", "FuzzDifferential", "FuzzSchema"].map { name in
        .executableTarget(name: name, dependencies: [.product(name: "JSONModelKit", package: "JSONModelKit")])
    },
    swiftLanguageModes: [.v6]
)
