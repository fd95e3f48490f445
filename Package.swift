// swift-tools-version: 6.0
import PackageDescription

// Module layering (dependencies point one way):
//   SignalScopeCore (runtime + instrumentation seam)
//     <- SignalScopeTracing (recorder, event log, reader; CSignalScopeBootstrap starts it
//        from SIGNALSCOPE_TRACE at load)
//     <- SignalScopeAnalysis (leak analyzers reading traces)
//     <- SignalScopeRendering (signal graphs to DOT, and through CGraphviz, the only module
//        that imports it, to SVG, PNG and PDF)
//     <- SignalScope (umbrella that users import)
//     <- SignalScopeTesting (helpers for tests written on the runtime)
//     <- signalscope (the command-line tool: check, record, graph, timeline, export, stats, demo)
let package = Package(
    name: "SignalScope",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SignalScope", targets: ["SignalScope"]),
        .library(name: "SignalScopeTesting", targets: ["SignalScopeTesting"]),
        .executable(name: "signalscope", targets: ["signalscope"]),
        .executable(name: "RuntimeTour", targets: ["RuntimeTour"]),
        .plugin(name: "SignalScopeCheck", targets: ["SignalScopeCheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "SignalScopeCore",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")]
        ),
        .target(
            name: "SignalScopeTracing",
            dependencies: [
                "SignalScopeCore", "CSignalScopeBootstrap", "CTracingSupport",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(name: "SignalScopeAnalysis", dependencies: ["SignalScopeCore", "SignalScopeTracing"]),
        .target(
            name: "SignalScopeRendering",
            dependencies: ["SignalScopeCore", "SignalScopeTracing", "SignalScopeAnalysis", "CGraphviz"]
        ),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(name: "CSignalScopeBootstrap"),
        .target(name: "CTracingSupport"),
        .target(name: "CSignalScopeCLISupport"),
        .target(
            name: "SignalScope",
            dependencies: ["SignalScopeCore", "SignalScopeTracing", "SignalScopeAnalysis", "SignalScopeRendering"]
        ),
        .target(
            name: "SignalScopeTesting",
            dependencies: ["SignalScope", "SignalScopeTracing", "SignalScopeAnalysis"]
        ),
        .executableTarget(
            name: "signalscope",
            dependencies: [
                "SignalScope", "SignalScopeRendering", "CSignalScopeCLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The fuzz target for the reader and everything that consumes a trace; `make fuzz`
        // builds it with libFuzzer, a plain build replays saved inputs.
        .executableTarget(
            name: "signalscope-fuzz",
            dependencies: ["SignalScope", "SignalScopeTracing", "CSignalScopeCLISupport"]
        ),
        .plugin(
            name: "SignalScopeCheck",
            capability: .command(
                intent: .custom(
                    verb: "signalscope-check",
                    description: "Run a command with SignalScope tracing on and fail on the leaks it finds")),
            dependencies: ["signalscope"]
        ),
        .executableTarget(
            name: "PlantedLeaks",
            dependencies: ["SignalScope"],
            path: "Examples/PlantedLeaks"
        ),
        .executableTarget(name: "Countdown", dependencies: ["SignalScope"], path: "Examples/Countdown"),
        .executableTarget(name: "SearchHints", dependencies: ["SignalScope"], path: "Examples/SearchHints"),
        .executableTarget(name: "UsernameCheck", dependencies: ["SignalScope"], path: "Examples/UsernameCheck"),
        .executableTarget(name: "TokenRefresh", dependencies: ["SignalScope"], path: "Examples/TokenRefresh"),
        .executableTarget(name: "ZipRefresh", dependencies: ["SignalScope"], path: "Examples/ZipRefresh"),
        .executableTarget(name: "LikeCommand", dependencies: ["SignalScope"], path: "Examples/LikeCommand"),
        .executableTarget(name: "ViewModelErrors", dependencies: ["SignalScope"], path: "Examples/ViewModelErrors"),
        .executableTarget(name: "CacheThenNetwork", dependencies: ["SignalScope"], path: "Examples/CacheThenNetwork"),
        .executableTarget(name: "DelegateSignal", dependencies: ["SignalScope"], path: "Examples/DelegateSignal"),
        .executableTarget(name: "ObserveSelfLeak", dependencies: ["SignalScope"], path: "Examples/ObserveSelfLeak"),
        .executableTarget(name: "SubjectNeverCompleted", dependencies: ["SignalScope"], path: "Examples/SubjectNeverCompleted"),
        .executableTarget(name: "CellReuseLeak", dependencies: ["SignalScope"], path: "Examples/CellReuseLeak"),
        .executableTarget(name: "InfiniteSignalDropped", dependencies: ["SignalScope"], path: "Examples/InfiniteSignalDropped"),
        .executableTarget(name: "ColdSignalTwice", dependencies: ["SignalScope"], path: "Examples/ColdSignalTwice"),
        .executableTarget(
            name: "RuntimeTour",
            dependencies: ["SignalScope"],
            path: "Examples/RuntimeTour"
        ),
        .executableTarget(
            name: "RenderGallery",
            dependencies: ["SignalScope"],
            path: "Examples/RenderGallery"
        ),
        .testTarget(
            name: "SignalScopeCoreTests",
            dependencies: ["SignalScope", "SignalScopeTesting"]
        ),
        .testTarget(
            name: "SignalScopeTracingTests",
            dependencies: ["SignalScope", "SignalScopeTesting", .product(name: "DequeModule", package: "swift-collections")]
        ),
        .testTarget(
            name: "SignalScopeAnalysisTests",
            dependencies: ["SignalScope", "SignalScopeTesting", "CSandbox"]
        ),
        // A seccomp filter for tests that show what happens in a sandbox.
        .target(name: "CSandbox", path: "Tests/CSandbox"),
        .testTarget(
            name: "SignalScopeRenderingTests",
            dependencies: ["SignalScope", "SignalScopeTesting"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "SignalScopeCLITests",
            dependencies: [
                "signalscope", "SignalScope", "PlantedLeaks",
                "ObserveSelfLeak", "SubjectNeverCompleted", "CellReuseLeak", "InfiniteSignalDropped", "ColdSignalTwice",
                "Countdown", "SearchHints", "UsernameCheck", "TokenRefresh", "ZipRefresh", "LikeCommand", "ViewModelErrors",
                "CacheThenNetwork", "DelegateSignal",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
