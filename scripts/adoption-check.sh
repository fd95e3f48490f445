#!/usr/bin/env bash
# Proves what adopting the runtime costs an app: a scratch app that depends on the
# `SignalScope` product alone builds with Graphviz's headers and pkg-config file hidden,
# resolves no package but swift-collections, links none of Graphviz's libraries, carries no
# tracer and no load-time recording, and still compiles `SignalScope.Signal` next to an app
# type of its own named `Signal`.
# Exit codes: 0 every check held; 1 a check failed or the scratch app did not build.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/Sources/ScratchApp"
# A path dependency is named after its folder, and a clone's folder may have any name.
ln -s "$repo" "$scratch/SignalScope"
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

echo "adoption-check: an app on the SignalScope product alone built with Graphviz's $hidden hidden; it links no Graphviz library, carries no tracer, records nothing, and resolves only swift-collections"
