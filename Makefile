# PerfKit: the whole set-up is `make demo` (the calendar demo) and `make test` (the tests).
SWIFT ?= swift
# Extra flags, for example SWIFT_FLAGS="-Xswiftc -warnings-as-errors" in CI.
SWIFT_FLAGS ?=

.PHONY: deps build release test demo doctor format lint

deps:
	@./Scripts/ensure-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release --product perfkit $(SWIFT_FLAGS)

test: deps
	$(SWIFT) test $(SWIFT_FLAGS)

demo: release
	.build/release/perfkit demo

doctor: release
	.build/release/perfkit doctor

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift
