#!/usr/bin/env bash
# Installs what building and testing SignalScope needs on a fresh Debian machine (SignalScope
# is built and tested on Linux only; see the README's Platforms).
# Idempotent: does nothing when everything is already there.
# Exit codes: 0 ready; 1 something is missing that this script cannot install.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift toolchain (6.1 or later) is not on PATH; install it from swift.org" >&2
  exit 1
fi

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! pkg-config --exists libgvc 2>/dev/null; then missing+=(libgraphviz-dev); fi
# FoundationXML (the CLI tests parse JUnit reports with it) loads libxml2 at run time.
if command -v ldconfig >/dev/null 2>&1 && ! ldconfig -p | grep -q 'libxml2\.so\.2'; then missing+=(libxml2); fi
# The HTML report's browser test opens the page in headless Chromium.
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# The report's script is tested with Node's own test runner (Tests/JavaScript).
command -v node >/dev/null 2>&1 || missing+=(nodejs)

# What some targets need besides: `setup.sh valgrind` for `make bench-instructions`.
for extra in "$@"; do
  case "$extra" in
    valgrind)
      command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
      command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
      ;;
    *) echo "setup: unknown extra '$extra' (expected: valgrind)" >&2; exit 1 ;;
  esac
done

# The report's link test clicks through the page with Playwright for Python, driving the
# system Chromium (no browser download).
if ! python3 -c 'import playwright' >/dev/null 2>&1; then
  echo "setup: installing Playwright for Python with pip" >&2
  python3 -m pip install -q playwright >/dev/null 2>&1 \
    || python3 -m pip install -q --break-system-packages playwright >/dev/null 2>&1 \
    || { echo "setup: could not install Playwright for Python (python3 -m pip install playwright)" >&2; exit 1; }
fi

# The Perfetto export's test reads the file with Perfetto's own compiled protos; the JSON
# findings' test validates them against their schema.
if ! python3 -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2, jsonschema' >/dev/null 2>&1; then
  echo "setup: installing the perfetto, protobuf and jsonschema Python packages with pip" >&2
  python3 -m pip install -q perfetto protobuf jsonschema >/dev/null 2>&1 \
    || python3 -m pip install -q --break-system-packages perfetto protobuf jsonschema >/dev/null 2>&1 \
    || { echo "setup: could not install perfetto, protobuf and jsonschema for Python (python3 -m pip install perfetto protobuf jsonschema)" >&2; exit 1; }
fi

if [ ${#missing[@]} -eq 0 ]; then exit 0; fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing ${missing[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "setup: missing ${missing[*]}; install them (Debian/Ubuntu: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
