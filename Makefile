# The README's two commands: `make demo` (the main job) and `make test`.
SWIFT ?= swift

.PHONY: setup build demo test

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

demo: setup
	$(SWIFT) run signalscope demo -o out

# The capture scanner reads compiler-generated closure layouts, which differ between
# debug and release builds, so its suite runs in both.
test: setup
	$(SWIFT) test
	$(SWIFT) test -c release --filter CaptureScannerTests
