# PerfKit: the whole set-up is `make demo` (the calendar demo) and `make test` (the tests).
SWIFT ?= swift
# Extra flags, for example SWIFT_FLAGS="-Xswiftc -warnings-as-errors" in CI.
SWIFT_FLAGS ?=
# PerfKit's own builds include `perfkit history` (the History trait, off for packages that depend
# on PerfKit); every debug target uses the same traits so no target rebuilds another's products
# (the demo's release build uses the default traits: see `demo`).
TRAITS ?= Jemalloc,History

.PHONY: deps build release test test-portable test-without-jemalloc crosscheck mutation-check demo doctor format lint

deps:
	@./Scripts/ensure-deps.sh

build: deps
	$(SWIFT) build --traits $(TRAITS) $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release --traits $(TRAITS) --product perfkit $(SWIFT_FLAGS)

# Swift Testing suites, then PerfKit's statistics against numpy and SciPy (skipped with a reason
# when Python with numpy and scipy cannot be had). The history store's PostgreSQL tests use a
# server on loopback that Scripts/test-postgres.sh starts (they skip, saying why, when it cannot).
test: deps
	./Scripts/ensure-browser.sh
	PERFKIT_TEST_POSTGRES="$$(./Scripts/test-postgres.sh)" $(SWIFT) test --traits $(TRAITS) $(SWIFT_FLAGS)
	./Scripts/crosscheck.sh .build/debug/perfkit
	$(MAKE) test-portable

# The portable path macOS takes, built on Linux with the Portable trait: a measured test's body runs, wall time and
# thread CPU are measured, the rest is named not measured (Documentation/Portable.md).
test-portable:
	$(SWIFT) test --traits Portable --scratch-path .build/portable --filter 'PortablePathTests|MeasuredTestTests' $(SWIFT_FLAGS)

# The same suites built without any trait, as a package that depends on PerfKit with
# `traits: []` builds it: allocation metrics must say "unavailable", `perfkit history` what to install.
test-without-jemalloc: deps
	$(SWIFT) test --disable-default-traits --scratch-path .build/without-jemalloc $(SWIFT_FLAGS)

crosscheck: build
	./Scripts/crosscheck.sh .build/debug/perfkit

# Plants each bug of Scripts/mutants.txt in a scratch copy and runs the suite (about 30 s a mutant).
mutation-check:
	./Scripts/mutation-check.sh

# The flagship example has its own tool, so perfkit (and the plugin adopters build) never compiles it.
# Built with the package's default traits into .perfkit/build, where and as the release build of the
# tests it runs goes (`perfkit run`), so the two share every module they have in common: with $(TRAITS),
# or in another folder, each compiled PerfKitCore, PerfKit and all above them again.
demo: deps
	$(SWIFT) build -c release --product calendar-demo --scratch-path .perfkit/build $(SWIFT_FLAGS)
	.perfkit/build/release/calendar-demo demo

doctor: release
	.build/release/perfkit doctor

format:
	$(SWIFT) format -i -r Sources Tests Plugins Package.swift

lint:
	$(SWIFT) format lint --strict -r Sources Tests Plugins Package.swift
	python3 ./Scripts/doc-coverage.py
	python3 ./Scripts/folder-cycles.py > /dev/null
	python3 ./Scripts/long-lines.py
	python3 ./Scripts/function-lengths.py --check Sources Tests Plugins > /dev/null
	python3 ./Scripts/try-audit.py
