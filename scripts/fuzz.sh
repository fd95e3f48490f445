#!/usr/bin/env bash
# Runs libFuzzer over the event log reader and everything that consumes a trace
# (Sources/signalscope-fuzz, docs/fuzzing.md) for FUZZ_SECONDS seconds (default 60).
# Seeds are traces of the example programs, recorded with values; the corpus grows in
# .build-fuzz/corpus across runs. Exit codes: 0 nothing found; 1 a crash, a hang (more than
# 3 s on one input), a leak or an out-of-memory, saved under .build-fuzz/findings/ and
# replayable with `swift run signalscope-fuzz <file>`; 2 the build failed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
examples=(PlantedLeaks ObserveSelfLeak SubjectNeverCompleted CellReuseLeak InfiniteSignalDropped ColdSignalTwice
  Countdown SearchHints UsernameCheck TokenRefresh ZipRefresh LikeCommand ViewModelErrors CacheThenNetwork DelegateSignal)
seeds=.build-fuzz/seeds
corpus=.build-fuzz/corpus
findings=.build-fuzz/findings
mkdir -p "$seeds" "$corpus" "$findings"

# One build of every product (after `swift test`, nothing is left to compile).
swift build >&2 || exit 2
for example in "${examples[@]}"; do
  [ -s "$seeds/$example.sslog" ] && continue
  # A planted leak exits non-zero on purpose: the trace is what matters.
  .build/debug/signalscope record --values -o "$seeds/$example.sslog" -- ".build/debug/$example" >/dev/null 2>&1 || true
  [ -s "$seeds/$example.sslog" ] || { echo "fuzz: $example wrote no trace" >&2; exit 2; }
done
# Without values, deliveries are compact records inside batches (docs/event-log.md).
if [ ! -s "$seeds/SearchHints-compact.sslog" ]; then
  .build/debug/signalscope record -o "$seeds/SearchHints-compact.sslog" -- .build/debug/SearchHints >/dev/null 2>&1 || true
  [ -s "$seeds/SearchHints-compact.sslog" ] || { echo "fuzz: SearchHints wrote no trace" >&2; exit 2; }
fi

# lld: gold fails on the sanitizer runtime's debug information.
swift build --build-path .build-fuzz --product signalscope-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld >&2 || exit 2

# Tests/FuzzSeeds holds traces shaped to stall or fill (HostileShapeTests writes them): a
# long name used by many nodes, a deep chain of live subscriptions, a cycle of parents.
# Inputs are at most 128 KiB and each must be done in 3 s, under AddressSanitizer in a
# debug build: work that grows faster than the input fails as a hang.
.build-fuzz/debug/signalscope-fuzz "$corpus" "$seeds" Tests/FuzzSeeds -max_total_time="$seconds" \
  -max_len=131072 -timeout=3 -rss_limit_mb=4096 \
  -artifact_prefix="$findings/" -print_final_stats=1 || { echo "fuzz: found a failing input, saved in $findings/" >&2; exit 1; }
