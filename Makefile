# The README's two commands: `make demo` (the main job) and `make test`.
SWIFT ?= swift

.PHONY: setup build demo test

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

demo: setup
	$(SWIFT) run RuntimeTour

test: setup
	$(SWIFT) test
