#!/usr/bin/env bash
# Proves what adopting SignalScope costs: no library product but SignalScopeGraphviz reaches
# Graphviz, none but SignalScopeAutoTrace records at load; and a scratch app that depends on the
# `SignalScope` product alone builds with Graphviz's headers and pkg-config file hidden,
# resolves no package but swift-collections, links none of Graphviz's libraries, carries no
# tracer and no load-time recording, and still compiles `SignalScope.Signal` next to an app
# type of its own named `Signal`.
# Exit codes: 0 every check held; 1 a check failed or the scratch app did not build.
set -euo pipefail

source "$(dirname "$0")/scratch-package.sh"
scratch_package ScratchApp
cat > "$scratch/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ScratchApp",
    dependencies: [.package(path: "SignalScope", traits: [])],
    targets: [
        .executableTarget(name: "ScratchApp", dependencies: [.product(name: "SignalScope", package: "SignalScope")])
    ]
)
MANIFEST
cat > "$scratch/Sources/ScratchApp/main.swift" <<'SWIFT'
import SignalScope

/// An app type that shares a name with the runtime's: the module name disambiguates.
struct Signal { let strength: Int }

final class SearchViewModel {
    let query = MutableProperty("")
    let hints: SignalScope.Signal<String>
    init() { hints = query.signal.map { $0.uppercased() } }
}

let model = SearchViewModel()
var received: [String] = []
let disposable = model.hints.subscribeNext { received.append($0) }
model.query.value = "swift"
disposable.dispose()
print(received.last ?? "", Signal(strength: 3).strength)
SWIFT

fail() { echo "adoption-check: $1" >&2; exit 1; }

# Every library product's closure of targets, from the manifest: Graphviz only behind
# SignalScopeGraphviz (and the tools' umbrella), the load-time recording only behind
# SignalScopeAutoTrace, and the runtime on its own, with nothing but its C thread-local
# words (CSignalScopeThreadWords: a header and one definition, no library).
closure_problems="$(cd "$repo" && swift package dump-package 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
def closure(name, seen):
    if name in seen or name not in targets: return seen
    seen.add(name)
    for dependency in targets[name]["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dependency: closure(dependency[kind][0], seen)
    return seen
rules = {
    "CGraphviz": {"SignalScopeGraphviz", "SignalScopeTools"}, "CSignalScopeBootstrap": {"SignalScopeAutoTrace"},
    "CSignalScopeOpenCombineBootstrap": {"SignalScopeOpenCombine"},
}
for product in package["products"]:
    if "library" not in product["type"]: continue
    reached = set()
    for target in product["targets"]: closure(target, reached)
    for forbidden, allowed in rules.items():
        if forbidden in reached and product["name"] not in allowed:
            print(product["name"] + " reaches " + forbidden)
    runtime = {"SignalScope", "CSignalScopeThreadWords"}
    if product["name"] == "SignalScope" and reached != runtime:
        print("SignalScope reaches " + ", ".join(sorted(reached - runtime)))
')" || fail "cannot read the package's manifest"
[ -z "$closure_problems" ] || fail "$(echo $closure_problems)"

# Hide Graphviz: an empty pkg-config search path always; an empty folder over its headers
# when this shell may make a mount namespace (root), which is how CI runs.
empty="$scratch/empty"
mkdir -p "$empty"
build=(env PKG_CONFIG_LIBDIR="$empty" PKG_CONFIG_PATH="$empty" swift build --package-path "$scratch")
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 && [ -d /usr/include/graphviz ]; then
  hidden="headers and pkg-config file"
  build=(unshare --mount sh -c 'mount --bind "$0" /usr/include/graphviz && exec "$@"' "$empty" "${build[@]}")
else
  hidden="pkg-config file (not root: the headers stayed visible)"
fi
if ! log="$("${build[@]}" 2>&1)"; then
  echo "$log" | tail -20 >&2
  fail "the scratch app did not build with Graphviz's $hidden hidden"
fi

binary="$scratch/.build/debug/ScratchApp"
output="$(SIGNALSCOPE_TRACE="$scratch/should-not-exist.sslog" "$binary")"
[ "$output" = "SWIFT 3" ] || fail "the scratch app printed '$output', not 'SWIFT 3'"
[ ! -e "$scratch/should-not-exist.sslog" ] || fail "an app on the runtime alone recorded a trace from SIGNALSCOPE_TRACE"

libraries="$(ldd "$binary")"
for library in libgvc libcgraph libcdt libpathplan libltdl libexpat; do
  if grep -q "$library" <<<"$libraries"; then fail "the scratch app links $library"; fi
done
if nm "$binary" | grep -q -e signalscope_bootstrap -e 18SignalScopeTracing -e 19SignalScopeAnalysis -e 20SignalScopeRendering; then
  fail "the scratch app carries the tracer, the analyzers, the renderers or the load-time recording"
fi
resolved="$(ls "$scratch/.build/checkouts")"
[ "$resolved" = "swift-collections" ] || fail "the scratch app resolved more than swift-collections: $(echo $resolved)"

echo "adoption-check: no library product but SignalScopeGraphviz reaches Graphviz, none but SignalScopeAutoTrace records at load"
echo "adoption-check: an app on the SignalScope product alone built with Graphviz's $hidden hidden; it links no Graphviz library, carries no tracer, records nothing, and resolves only swift-collections"
