#!/usr/bin/env bash
# OpenCombine's own test suite (Tests/OpenCombineTests of the mirrored 0.14.0), each test class
# in a process of its own, three ways: plainly; with an introspection hook of OpenCombine's
# that does nothing; and with the SignalScopeOpenCombine adapter recording the whole run
# (SignalScopeAutoTrace, SIGNALSCOPE_TRACE). OpenCombine's hook itself changes what some of
# its tests see (with any hook on, a publisher receives its subscriber wrapped in a tap, which
# tests that unwrap it do not expect): those differences are OpenCombine's, and are listed.
# The adapter must change nothing beyond them: every test case ends as with the empty hook,
# and no class crashes or hangs that did not with it.
# Exit codes: 0 the adapter changed nothing; 1 it did, or the suite did not build.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$repo/.build-opencombine-suite"
limit="${OPENCOMBINE_SUITE_CLASS_TIMEOUT:-120}"
mkdir -p "$scratch/Sources/EmptyHook" "$scratch/Sources/CEmptyHookBootstrap/include"
# A path dependency is named after its folder, and a clone's folder may have any name.
ln -sfn "$repo" "$scratch/SignalScope"
cat > "$scratch/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "OpenCombineSuite",
    dependencies: [
        .package(path: "SignalScope"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "CEmptyHookBootstrap"),
        .target(name: "EmptyHook", dependencies: ["CEmptyHookBootstrap", .product(name: "OpenCombine", package: "OpenCombine")]),
        .testTarget(
            name: "OpenCombineTests",
            dependencies: [
                "EmptyHook",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
                .product(name: "SignalScopeOpenCombine", package: "SignalScope"),
                .product(name: "SignalScopeAutoTrace", package: "SignalScope"),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
MANIFEST
cat > "$scratch/Sources/CEmptyHookBootstrap/bootstrap.c" <<'C'
extern void opencombine_suite_empty_hook(void);
__attribute__((constructor)) static void bootstrap(void) { opencombine_suite_empty_hook(); }
C
echo "" > "$scratch/Sources/CEmptyHookBootstrap/include/CEmptyHookBootstrap.h"
cat > "$scratch/Sources/EmptyHook/EmptyHook.swift" <<'SWIFT'
import Foundation
import OpenCombine

/// An introspection hook that does nothing, on from the start when OPENCOMBINE_SUITE_EMPTY_HOOK
/// is set: what OpenCombine does with any hook on.
final class EmptyIntrospection: _Introspection {}

private let hook = EmptyIntrospection()

@_cdecl("opencombine_suite_empty_hook")
public func openCombineSuiteEmptyHook() {
    if ProcessInfo.processInfo.environment["OPENCOMBINE_SUITE_EMPTY_HOOK"] != nil { hook.enable() }
}
SWIFT

fail() { echo "opencombine-suite: $1" >&2; exit 1; }

swift package --package-path "$scratch" resolve >/dev/null || fail "cannot resolve OpenCombine 0.14.0"
rm -rf "$scratch/Tests"
mkdir -p "$scratch/Tests"
cp -R "$scratch/.build/checkouts/OpenCombine/Tests/OpenCombineTests" "$scratch/Tests/OpenCombineTests"
# The one file of the suite that does not compile against this toolchain's Foundation (its
# NotificationCenter subclass overrides methods that are no longer open), with or without
# the adapter: left out of every run.
excluded="FoundationTests/NotificationCenterTests.swift"
rm "$scratch/Tests/OpenCombineTests/$excluded"
swift build --package-path "$scratch" --build-tests >"$scratch/build.log" 2>&1 || { tail -30 "$scratch/build.log" >&2; fail "the suite did not build"; }
binary="$(find "$scratch/.build/debug/" -maxdepth 1 -name "*.xctest" | head -1)"
[ -x "$binary" ] || fail "no test binary in $scratch/.build/debug"

classes="$("$binary" --list-tests 2>/dev/null | grep "/" | sed -E 's/^([^/]*)\/.*/\1/' | sort -u)"
[ -n "$classes" ] || fail "the suite lists no tests"

# Each test case's name and how it ended, or the class's name and how its process ended when
# it did not reach XCTest's summary (a crash, or a hang past the limit). The suite's crash
# tests crash child processes on purpose; the Swift runtime's backtracer, which symbolicates
# every thread of a crashed process, is not what they test, so every run goes without it.
run_classes() {
  local name="$1"; shift
  local out="$scratch/$name"
  rm -rf "$out"; mkdir -p "$out"
  for class in $classes; do
    set +e
    timeout "$limit" env SWIFT_BACKTRACE=enable=no "$@" "$binary" "$class" >"$out/$class.log" 2>&1
    local status=$?
    set -e
    grep -E "^Test Case '.*' (passed|failed|skipped)" "$out/$class.log" \
      | sed -E "s/^Test Case '([^']*)' (passed|failed|skipped).*/\1 \2/" >>"$out/outcomes.unsorted" || true
    if [ "$status" -eq 124 ]; then echo "$class hung" >>"$out/outcomes.unsorted"
    elif ! grep -q "^	 Executed [0-9]* tests" "$out/$class.log"; then echo "$class crashed" >>"$out/outcomes.unsorted"; fi
  done
  sort "$out/outcomes.unsorted" >"$out/outcomes"
}

mkdir -p "$scratch/traces"
rm -f "$scratch/traces/"*
run_classes plain SIGNALSCOPE_TRACE=
run_classes hooked SIGNALSCOPE_TRACE= OPENCOMBINE_SUITE_EMPTY_HOOK=1
# Every process records into a trace of its own (%p), with a small budget for the snapshot it
# takes at exit: what the suite tests is behaviour, and walking the whole heap of a test
# binary this size at the exit of each of its processes would add about a minute.
run_classes traced SIGNALSCOPE_HEAP_OBJECTS=200 SIGNALSCOPE_TRACE="$scratch/traces/suite-%p.sslog"

count="$(wc -l <"$scratch/plain/outcomes")"
[ "$count" -gt 0 ] || fail "the plain run reported no test cases"
traces="$(ls "$scratch/traces" | wc -l)"
[ "$traces" -gt 0 ] || fail "the traced run recorded nothing"
if ! diff -u "$scratch/plain/outcomes" "$scratch/hooked/outcomes" >"$scratch/hook.diff"; then
  echo "opencombine-suite: what OpenCombine's own hook changes (any hook on, no SignalScope):" >&2
  grep -E "^[-+][^-+]" "$scratch/hook.diff" >&2 || true
fi
diff -u "$scratch/hooked/outcomes" "$scratch/traced/outcomes" >&2 || fail "the adapter changed how the test cases above end, beyond what OpenCombine's hook changes"
failed="$(grep -c " failed$" "$scratch/plain/outcomes" || true)"
hook_changes="$(grep -cE "^[-+][^-+]" "$scratch/hook.diff" || true)"
echo "opencombine-suite: $count outcomes of OpenCombine's own suite ($(echo "$classes" | wc -l) classes, $traces processes traced) end with the adapter recording as with an empty hook; OpenCombine's hook alone changes $hook_changes lines of them; $failed fail plainly; left out: $excluded, which does not compile here"
