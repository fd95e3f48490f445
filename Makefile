# The README's commands, `make demo` (the main job), `make test` and `make ci` (what CI
# runs), and the benchmarks.
SWIFT ?= swift

.PHONY: setup build demo test test-opencombine test-browser test-scale ci fuzz bench bench-json bench-instructions bench-live-memory lsan-compare tsan opencombine-suite

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

demo: setup
	$(SWIFT) run signalscope demo -o out

# `make test` is the README's test command: every suite but those below, in a debug build of
# its own (.build-quick) without the OpenCombineAdapter trait, so that it neither builds
# OpenCombine nor rebuilds the `.build` that `swift build` and `swift run` use. `make ci`
# (what .ci/run runs) adds what takes too long to wait for at a desk:
#
# - The default build (`.build`, every trait) and what `make test` leaves out of it: the
#   OpenCombine adapter's suite and the Combine example (`make test-opencombine`), and the
#   tests that drive Chromium (`.inBrowser` in the CLI's tests, `make test-browser`), whose
#   browser starts cost seconds of both processors each. A plain `swift test` runs them all.
# - The heap walk reads compiler-generated layouts (closure contexts, reabstraction thunks,
#   enum payloads), which differ between debug and release builds, so the suites that check
#   it, and the leak corpus that depends on it, run again in release. That run builds only
#   the libraries and the two test targets it needs (SIGNALSCOPE_SUITES=heap, see
#   Package.swift) in a build folder of its own, so that the manifest evaluated with that
#   switch never mixes with the whole package's.
# - The tests that prove a bound at scale (a million records, twenty thousand nodes, two
#   thousand watched objects, floods of connections: `.atScale` in the CLI's tests), which
#   take minutes of both processors together (`make test-scale` runs them alone). One at a
#   time: each judges deadlines or bounds that another running beside it would blur.
# - A short fuzz of the trace reader and every consumer of a trace (docs/fuzzing.md).
# - scripts/adoption-check.sh proves that an app on the runtime product alone builds with
#   Graphviz hidden and links nothing but the runtime; scripts/plugin-check.sh that the
#   `swift package signalscope-check` plugin works in a package depending on SignalScope.
# - ThreadSanitizer over the runtime's and the recorder's suites (`make tsan`).
TEST_FUZZ_SECONDS ?= 20
HEAP_SUITES = HeapWalkerTests|KeptClosureTests|LeakCorpusTests|RetainCountTests|HostileObjectTests
SCALE_SUITES = ^SignalScopeCLITests\.(ScaleTests|WatchedAtScaleTests|LargeLogTests|HostileShapeTests|PerfettoExportTests|LiveServerTests)/
BROWSER_SUITES = ^SignalScopeCLITests\.(ReportBrowserTests|LivePageTests)/
OPENCOMBINE_SUITES = ^SignalScopeOpenCombineTests\.|^SignalScopeCLITests\.ArticleExampleTests/
QUICK_BUILD = --scratch-path .build-quick --disable-default-traits --traits CommandLineTool
test: setup
	SIGNALSCOPE_BROWSER_TESTS=0 $(SWIFT) test $(QUICK_BUILD)

test-opencombine: setup
	$(SWIFT) test --filter "$(OPENCOMBINE_SUITES)"

test-browser: setup
	$(SWIFT) test --filter "$(BROWSER_SUITES)"

test-scale: setup
	SIGNALSCOPE_SCALE_TESTS=1 $(SWIFT) test --no-parallel --filter "$(SCALE_SUITES)"

ci: test
	$(SWIFT) test --filter "$(OPENCOMBINE_SUITES)|$(BROWSER_SUITES)"
	SIGNALSCOPE_SCALE_TESTS=1 $(SWIFT) test --skip-build --no-parallel --filter "$(SCALE_SUITES)"
	SIGNALSCOPE_SUITES=heap $(SWIFT) test -c release --scratch-path .build-heap-suites --filter "$(HEAP_SUITES)"
	@FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) scripts/fuzz.sh
	@scripts/adoption-check.sh
	@scripts/plugin-check.sh
	@$(MAKE) --no-print-directory tsan
	@$(MAKE) --no-print-directory opencombine-suite
	@echo "make ci: passed: every suite (debug), the OpenCombine adapter's and the browser's, the tests at scale, the heap-walk suites (release), $(TEST_FUZZ_SECONDS) s of fuzzing, the adoption and plugin checks, the ThreadSanitizer suites, OpenCombine's own suite under the adapter"

# LeakSanitizer as a peer (docs/analyzers.md, "LeakSanitizer as a peer"): the leak corpus
# built with AddressSanitizer, each scenario in a process of its own with leak detection on,
# then the heap walk stressed by eight threads for LSAN_STRESS recordings. Fails when
# LeakSanitizer finds a leak SignalScope misses, a clean scenario has a finding, or the
# stress goes wrong. Run it by hand; it takes about ten minutes.
LSAN_STRESS ?= 1000
lsan-compare: setup
	@python3 scripts/lsan-compare.py --stress $(LSAN_STRESS)

# ThreadSanitizer over the runtime's suites and the recorder's (docs/semantics.md, "What
# ThreadSanitizer checks"), one test at a time, in a build of its own with only the
# libraries and those test targets (SIGNALSCOPE_SUITES=tsan, see Package.swift); any report
# fails it. `make ci` ends with it.
TSAN_SUITES = ^SignalScopeTests\.|^SignalScopeTracingTests\.(CausalityTests|EventLogReaderTests|RecordTests|StringTableTests|SnapshotTests)
tsan: setup
	SIGNALSCOPE_SUITES=tsan $(SWIFT) test --sanitize=thread -Xswiftc -DSIGNALSCOPE_TSAN --scratch-path .build-tsan --no-parallel --filter "$(TSAN_SUITES)"

# libFuzzer over the event log reader and every consumer of a trace, FUZZ_SECONDS long
# (default 60); see docs/fuzzing.md.
fuzz: setup
	@scripts/fuzz.sh

# The benchmarks are a package of their own (Benchmarks/), so that SignalScope's users never
# fetch their peer, OpenCombine; they are never part of `make test`. Build output goes to
# stderr and the recipes are silent, so `make bench-json` prints nothing but JSON on stdout.
# Pass options with BENCH_ARGS, e.g. `make bench BENCH_ARGS="--scale 0.1 --only churn"`.
BENCH = Benchmarks/.build/release/signalscope-bench

bench: setup
	@$(SWIFT) build -c release --package-path Benchmarks >&2
	@$(BENCH) $(BENCH_ARGS)

bench-json: setup
	@$(SWIFT) build -c release --package-path Benchmarks >&2
	@$(BENCH) --json $(BENCH_ARGS)

# Instructions per operation under callgrind, for ratios that repeat on a noisy machine:
# the default release build and one with cross-module optimization, each scenario and
# variant in a child process of its own. Pass --json (or other options) with BENCH_ARGS.
BENCH_CMO = Benchmarks/.build-cmo/release/signalscope-bench

# signalscope live's own peak memory with one page connected, at about 100,000 and 1,000,000
# events (docs/performance.md, "The live page").
bench-live-memory: setup
	$(SWIFT) build --product signalscope
	$(SWIFT) build --product LiveSession
	python3 scripts/live-memory.py .build/debug/signalscope .build/debug/LiveSession 50000 500000

bench-instructions: setup
	@scripts/setup.sh valgrind
	@# Incremental release builds of the benchmark have kept stale objects after a runtime
	@# class changed its stored properties (a crash; with cross-module optimization,
	@# undefined symbols at link time), so both builds start from clean objects.
	@rm -rf Benchmarks/.build/*-linux-gnu/release Benchmarks/.build-cmo/*-linux-gnu/release
	@$(SWIFT) build -c release --package-path Benchmarks >&2
	@$(SWIFT) build -c release --package-path Benchmarks --scratch-path Benchmarks/.build-cmo -Xswiftc -cross-module-optimization >&2
	@$(BENCH) instructions --cross-module-build $(BENCH_CMO) $(BENCH_ARGS)

# OpenCombine's own test suite, plainly, with an empty OpenCombine hook, and with the
# SignalScopeOpenCombine adapter recording: the last two must end the same
# (scripts/opencombine-suite.sh; about 27 minutes on the 2-core machine, most of it in the
# recorded run: the suite sends after completion on purpose, and each such stack is
# symbolicated).
opencombine-suite: setup
	@scripts/opencombine-suite.sh
