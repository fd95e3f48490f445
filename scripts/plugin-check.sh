#!/usr/bin/env bash
# Proves the `swift package signalscope-check` plugin works where users run it: in a package
# that depends on SignalScope. A scratch package with a screen whose observer captures it
# fails the plugin's check with that leak at the observer's line, and its fixed twin passes.
# The plugin builds the tool on demand through the package manager, so this also proves the
# tool of a dependency can be built and found that way.
# Exit codes: 0 both held; 1 a check failed or the scratch package did not build.
set -euo pipefail

source "$(dirname "$0")/scratch-package.sh"
scratch_package ScratchScreen
cat > "$scratch/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ScratchScreen",
    dependencies: [.package(path: "SignalScope")],
    targets: [
        .executableTarget(
            name: "ScratchScreen",
            dependencies: [
                .product(name: "SignalScope", package: "SignalScope"),
                .product(name: "SignalScopeAutoTrace", package: "SignalScope"),
            ]
        )
    ]
)
MANIFEST
cat > "$scratch/Sources/ScratchScreen/main.swift" <<'SWIFT'
import SignalScope

final class ProfileScreen {
    let name = MutableProperty("")
    var greeting = ""

    init(fixed: Bool) {
        if fixed {
            name.signal.subscribeNext { [weak self] text in self?.greeting = text }
        } else {
            name.signal.subscribeNext { text in self.greeting = text }
        }
    }
}

do {
    let screen = ProfileScreen(fixed: CommandLine.arguments.contains("--fixed"))
    screen.name.value = "Ada"
}
SWIFT

fail() { echo "plugin-check: $1" >&2; exit 1; }

if ! log="$(swift build --package-path "$scratch" 2>&1)"; then
  echo "$log" | tail -20 >&2
  fail "the scratch package did not build"
fi
binary="$scratch/.build/debug/ScratchScreen"

status=0
leaky="$(cd "$scratch" && swift package signalscope-check -- "$binary" 2>&1)" || status=$?
[ "$status" -ne 0 ] || fail "the plugin passed a screen whose observer captures it: $leaky"
grep -q "Sources/ScratchScreen/main.swift:11: error: \[self-captured-observer\]" <<<"$leaky" \
  || fail "the plugin did not report the self-captured observer at its line: $leaky"

fixed="$(cd "$scratch" && swift package signalscope-check -- "$binary" --fixed 2>&1)" \
  || fail "the plugin failed the fixed twin: $fixed"

echo "plugin-check: swift package signalscope-check, in a package depending on SignalScope, fails a leaky screen at its observer's line and passes its fixed twin"
