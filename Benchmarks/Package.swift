// swift-tools-version: 6.0
import PackageDescription

// The benchmark suite is its own package so that SignalScope's users never fetch its peer,
// OpenCombine: `make bench` builds it in release and runs it (see docs/performance.md).
let package = Package(
    name: "SignalScopeBenchmarks",
    dependencies: [
        .package(name: "SignalScope", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "signalscope-bench",
            dependencies: [
                .product(name: "SignalScopeTools", package: "SignalScope"),
                .product(name: "SignalScopeOpenCombine", package: "SignalScope"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/SignalScopeBenchmarks"
        )
    ]
)
