// swift-tools-version: 6.1
import PackageDescription

// SignalScope is built and tested on Linux only: the tracer reads the process's own heap
// through Linux system calls, and no Darwin build is tested (see the README's Platforms).
#if !os(Linux)
#error("SignalScope builds on Linux only; see the README's Platforms section")
#endif

// Products by what they cost, dependencies pointing one way:
//   SignalScope (the runtime; what apps import: the toolchain and swift-collections only)
//     <- SignalScopeHeap (a Swift-on-Linux heap walker: exact strong references from a set
//        of roots, in a forked copy of the process; it knows the runtime's module and its
//        lock, nothing of traces)
//        <- SignalScopeTracing (recorder, event log, reader)
//           <- SignalScopeAutoTrace (opt-in: a program that links it records itself
//              when SIGNALSCOPE_TRACE is set)
//     <- SignalScopeAnalysis (leak analyzers reading traces)
//     <- SignalScopeRendering (pure Swift: signal graphs to DOT, timelines, exports)
//     <- SignalScopeGraphviz (DOT to SVG, PNG and PDF through Graphviz's C library)
//     <- SignalScopeTesting (leak assertions and helpers for tests written on the runtime;
//        Rendering too, for the report a failing check keeps)
//     <- SignalScopeOpenCombine (opt-in: OpenCombine's publishers, traced through its own
//        introspection hook while something records; the only product that fetches OpenCombine)
//     <- SignalScopeTools (umbrella for tools: everything above but the auto-trace)
//     <- signalscope (the command-line tool)
let package = Package(
    name: "SignalScope",
    products: [
        .library(name: "SignalScope", targets: ["SignalScope"]),
        .library(name: "SignalScopeTracing", targets: ["SignalScopeTracing"]),
        .library(name: "SignalScopeAutoTrace", targets: ["SignalScopeAutoTrace"]),
        .library(name: "SignalScopeAnalysis", targets: ["SignalScopeAnalysis"]),
        .library(name: "SignalScopeRendering", targets: ["SignalScopeRendering"]),
        .library(name: "SignalScopeGraphviz", targets: ["SignalScopeGraphviz"]),
        .library(name: "SignalScopeTesting", targets: ["SignalScopeTesting"]),
        .library(name: "SignalScopeOpenCombine", targets: ["SignalScopeOpenCombine"]),
        .library(name: "SignalScopeTools", targets: ["SignalScopeTools"]),
        .executable(name: "signalscope", targets: ["signalscope"]),
        .executable(name: "RuntimeTour", targets: ["RuntimeTour"]),
        .plugin(name: "SignalScopeCheck", targets: ["SignalScopeCheck"]),
    ],
    // The command-line tool's argument parser and the OpenCombine adapter's OpenCombine are
    // behind traits, on by default: an app that depends on SignalScope with `traits: []`
    // resolves swift-collections and nothing else.
    traits: [
        .trait(name: "CommandLineTool", description: "The signalscope tool and its plugin (swift-argument-parser)"),
        .trait(name: "OpenCombineAdapter", description: "The SignalScopeOpenCombine product (OpenCombine)"),
        .default(enabledTraits: ["CommandLineTool", "OpenCombineAdapter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(
            name: "SignalScope",
            dependencies: ["CSignalScopeThreadWords", .product(name: "DequeModule", package: "swift-collections")]
        ),
        .target(name: "CSignalScopeThreadWords"),
        .target(name: "SignalScopeHeap", dependencies: ["SignalScope", "CTracingSupport"]),
        .target(
            name: "SignalScopeTracing",
            dependencies: [
                "SignalScope", "SignalScopeHeap", "CTracingSupport",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(name: "CTracingSupport"),
        .target(name: "SignalScopeAutoTrace", dependencies: ["SignalScopeTracing", "CSignalScopeBootstrap"]),
        .target(name: "CSignalScopeBootstrap"),
        .target(name: "SignalScopeAnalysis", dependencies: ["SignalScope", "SignalScopeTracing", "CSignalScopeAnalysisBootstrap"]),
        .target(name: "CSignalScopeAnalysisBootstrap"),
        // The report page's script and style are files of their own (tested under Node from
        // Tests/JavaScript), compiled into the library as string literals by the EmbeddedText
        // plugin: no bundle to find at run time.
        .target(
            name: "SignalScopeRendering",
            dependencies: [
                "SignalScope", "SignalScopeTracing", "SignalScopeAnalysis", .product(name: "DequeModule", package: "swift-collections"),
            ],
            exclude: ["Report/Assets"],
            plugins: ["EmbeddedText"]
        ),
        // Compiles a target's text assets into it as string literals (see the plugin for why
        // not `embedInCode`).
        .plugin(name: "EmbeddedText", capability: .buildTool()),
        // A library adapter: OpenCombine's `_Introspection` calls become the seam's calls. Its C
        // constructor registers it when the program loads, so linking it is enough.
        .target(
            name: "SignalScopeOpenCombine",
            dependencies: [
                "SignalScope", "SignalScopeHeap", "CSignalScopeOpenCombineBootstrap",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["OpenCombineAdapter"])),
            ]
        ),
        .target(name: "CSignalScopeOpenCombineBootstrap"),
        .target(name: "SignalScopeGraphviz", dependencies: ["SignalScopeRendering", "CGraphviz"]),
        .systemLibrary(name: "CGraphviz", pkgConfig: "libgvc", providers: [.apt(["libgraphviz-dev"])]),
        .target(name: "SignalScopeTesting", dependencies: ["SignalScope", "SignalScopeTracing", "SignalScopeAnalysis", "SignalScopeRendering"]),
        .target(
            name: "SignalScopeTools",
            dependencies: [
                "SignalScope", "SignalScopeTracing", "SignalScopeAnalysis", "SignalScopeRendering", "SignalScopeGraphviz",
            ]
        ),
        .executableTarget(
            name: "signalscope",
            dependencies: [
                "SignalScopeTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
            ]
        ),
        // The fuzz target for the reader and everything that consumes a trace; `make fuzz`
        // builds it with libFuzzer, a plain build replays saved inputs.
        .executableTarget(name: "signalscope-fuzz", dependencies: ["SignalScopeTools", "CFuzzDriver"]),
        .target(name: "CFuzzDriver"),
        .plugin(
            name: "SignalScopeCheck",
            capability: .command(
                intent: .custom(
                    verb: "signalscope-check",
                    description: "Run a command with SignalScope tracing on and fail on the leaks it finds"))
        ),
        // The examples are apps written on the runtime, traced from the environment.
        .executableTarget(
            name: "PlantedLeaks",
            dependencies: ["SignalScope", "SignalScopeAutoTrace"],
            path: "Examples/PlantedLeaks"
        ),
        .executableTarget(name: "Countdown", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/Countdown"),
        .executableTarget(name: "SearchHints", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/SearchHints"),
        .executableTarget(name: "UsernameCheck", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/UsernameCheck"),
        .executableTarget(name: "TokenRefresh", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/TokenRefresh"),
        .executableTarget(name: "ZipRefresh", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/ZipRefresh"),
        .executableTarget(name: "LikeCommand", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/LikeCommand"),
        .executableTarget(name: "ViewModelErrors", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/ViewModelErrors"),
        .executableTarget(name: "CacheThenNetwork", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/CacheThenNetwork"),
        .executableTarget(name: "DelegateSignal", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/DelegateSignal"),
        .executableTarget(name: "ObserveSelfLeak", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/ObserveSelfLeak"),
        .executableTarget(name: "SubjectNeverCompleted", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/SubjectNeverCompleted"),
        .executableTarget(name: "CellReuseLeak", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/CellReuseLeak"),
        .executableTarget(name: "InfiniteSignalDropped", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/InfiniteSignalDropped"),
        .executableTarget(name: "ColdSignalTwice", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/ColdSignalTwice"),
        .executableTarget(name: "PortedFromReactiveSwift", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/PortedFromReactiveSwift"),
        .executableTarget(name: "PortedFromRxSwift", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/PortedFromRxSwift"),
        .executableTarget(name: "PortedFromCombine", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/PortedFromCombine"),
        // Written as Combine code, traced through the OpenCombine adapter.
        .executableTarget(
            name: "CombineSearch",
            dependencies: [
                "SignalScopeOpenCombine", "SignalScopeAutoTrace",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["OpenCombineAdapter"])),
            ],
            path: "Examples/CombineSearch"
        ),
        .executableTarget(name: "ScreensAtScale", dependencies: ["SignalScope", "SignalScopeAutoTrace"], path: "Examples/ScreensAtScale"),
        .executableTarget(
            name: "LiveSession", dependencies: ["SignalScope", "SignalScopeTracing", "SignalScopeAutoTrace"], path: "Examples/LiveSession"),
        .executableTarget(
            name: "RuntimeTour",
            dependencies: ["SignalScope", "SignalScopeAutoTrace"],
            path: "Examples/RuntimeTour"
        ),
        .executableTarget(
            name: "RenderGallery",
            dependencies: ["SignalScopeTools"],
            path: "Examples/RenderGallery"
        ),
        .testTarget(
            name: "SignalScopeTests",
            dependencies: ["SignalScopeTools", "SignalScopeTesting"]
        ),
        .testTarget(
            name: "SignalScopeTracingTests",
            dependencies: ["SignalScopeTools", "SignalScopeTesting", .product(name: "DequeModule", package: "swift-collections")]
        ),
        .testTarget(
            name: "SignalScopeAnalysisTests",
            dependencies: ["SignalScopeTools", "SignalScopeTesting", "CSandbox", "LeakCorpus", "ToyReactive"]
        ),
        // A reactive library SignalScope knows nothing of, traced through a test's adapter.
        .target(name: "ToyReactive", path: "Tests/ToyReactive"),
        // The leak corpus: scenarios written as apps write them, each leaky one next to its
        // fixed twin. The analysis tests judge them; `signalscope-corpus` runs one scenario in
        // a process of its own, for LeakSanitizer to judge too (`make lsan-compare`), and
        // stresses the heap walk under AddressSanitizer.
        .target(name: "LeakCorpus", dependencies: ["SignalScopeTools"], path: "Tests/LeakCorpus"),
        .executableTarget(
            name: "signalscope-corpus", dependencies: ["LeakCorpus", "SignalScopeTools", "SignalScopeAutoTrace"], path: "Tests/LeakCorpusRunner"),
        // A seccomp filter for tests that show what happens in a sandbox.
        .target(name: "CSandbox", path: "Tests/CSandbox"),
        .testTarget(
            name: "SignalScopeOpenCombineTests",
            dependencies: [
                "SignalScopeOpenCombine", "SignalScopeTools", "SignalScopeTesting",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["OpenCombineAdapter"])),
                // Its timer publisher, whose timer swift-corelibs-foundation keeps once cancelled.
                .product(name: "OpenCombineFoundation", package: "OpenCombine", condition: .when(traits: ["OpenCombineAdapter"])),
                // Its dispatch queues as schedulers, which hop deliveries to another thread.
                .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(traits: ["OpenCombineAdapter"])),
            ]
        ),
        .testTarget(
            name: "SignalScopeRenderingTests",
            dependencies: ["SignalScopeTools", "SignalScopeTesting"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "SignalScopeCLITests",
            dependencies: [
                "signalscope", "SignalScopeTools", "PlantedLeaks",
                "ObserveSelfLeak", "SubjectNeverCompleted", "CellReuseLeak", "InfiniteSignalDropped", "ColdSignalTwice",
                "Countdown", "SearchHints", "UsernameCheck", "TokenRefresh", "ZipRefresh", "LikeCommand", "ViewModelErrors",
                "CacheThenNetwork", "DelegateSignal", "ScreensAtScale",
                "PortedFromReactiveSwift", "PortedFromRxSwift", "PortedFromCombine", "LiveSession", "CombineSearch",
                "signalscope-corpus", "LeakCorpus",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `make ci` runs some suites a second time, each in a build of its own: the heap-walk
// suites in release, where compiler-generated layouts differ, and the runtime and tracing
// suites under ThreadSanitizer. Building every example, the tool and its tests for them took
// most of that time, so with SIGNALSCOPE_SUITES=heap (or =tsan) the package holds
// only the libraries and the test targets those suites live in.
let libraries: Set<String> = [
    "SignalScope", "CSignalScopeThreadWords", "SignalScopeHeap", "SignalScopeTracing", "CTracingSupport", "SignalScopeAnalysis", "CSignalScopeAnalysisBootstrap", "SignalScopeRendering",
    "SignalScopeGraphviz", "CGraphviz", "SignalScopeTesting", "SignalScopeTools", "EmbeddedText",
]
let suiteTargets: [String: Set<String>] = [
    "heap": ["CSandbox", "SignalScopeTracingTests", "SignalScopeAnalysisTests", "LeakCorpus", "ToyReactive"],
    "tsan": ["SignalScopeTests", "SignalScopeTracingTests"],
]
if let suites = Context.environment["SIGNALSCOPE_SUITES"], let targets = suiteTargets[suites] {
    let kept = libraries.union(targets)
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { !kept.contains($0.name) }
}
