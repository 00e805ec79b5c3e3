# Thin wrapper over CMake so that a fresh clone needs two commands:
#   make run    install missing Debian packages, build, simulate a bundled
#               trace under the default GPU
#   make test   the same set-up, then every test through CTest, then a
#               clang build that fuzzes each parser for a few seconds
# Other targets: build, bench (speed and memory), validate (the seed
# studies), sanitize (ASan+UBSan unit and CLI tests), tsan (ThreadSanitizer
# over the threaded simulator), install (PREFIX,
# default /usr/local), format (clang-format the C sources in place),
# format-check (list the files .clang-format would change), lint (cppcheck
# and clang-tidy over sim/ and model/, dist/lint.sh), clean.

BUILD       ?= build
FUZZ_BUILD  ?= build-fuzz
SAN_BUILD   ?= build-sanitize
TSAN_BUILD  ?= build-tsan
LINT_BUILD  ?= build-lint
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX      ?= /usr/local
FUZZ_SECONDS ?= 5

# A value as one shell word, whatever it holds (blanks, quotes): in
# single quotes, each ' written '\''.  Every folder a recipe names goes
# through it, so PREFIX="/opt/my tools" installs there.
shq = '$(subst ','\'',$(1))'

DEBIAN_PACKAGES = build-essential cmake pkg-config python3 xz-utils \
                  libgsl-dev libyaml-dev libcmocka-dev liblzma-dev libzstd-dev zstd \
                  libjansson-dev libxxhash-dev gnuplot-nox \
                  clang libclang-rt-dev help2man \
                  clang-format clang-tidy cppcheck

.PHONY: all deps build run test bench validate fuzz sanitize tsan install clean \
        format format-check lint

all: build

# Installs only what is missing, non-interactively; needs root or sudo.
deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends $$missing; \
	fi

# Configured once: the cache is tested in the recipe, not made a target,
# so that a BUILD holding a blank is still one folder.
build: deps
	test -f $(call shq,$(BUILD))/CMakeCache.txt || \
	  cmake -S . -B $(call shq,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(call shq,$(BUILD)) -j $(JOBS)

# Only the simulator, its build log kept out of the way (shown if it
# fails): the report is what a first run is for.
run: deps
	@mkdir -p $(call shq,$(BUILD))
	@echo "building warpsim (log: $(BUILD)/make-run.log)"
	@{ test -f $(call shq,$(BUILD))/CMakeCache.txt || \
	   cmake -S . -B $(call shq,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo; \
	   cmake --build $(call shq,$(BUILD)) -j $(JOBS) --target warpsim; } \
	  > $(call shq,$(BUILD))/make-run.log 2>&1 || \
	  { cat $(call shq,$(BUILD))/make-run.log; exit 1; }
	@$(call shq,$(BUILD)/warpsim) run traces/accelsim/vecadd

# The seed studies in full: validate/out/STUDY/ (report.md, plots, CSVs).
validate: build
	$(call shq,$(BUILD)/warpsim) validate -j $(JOBS)

# Speed and memory on the generated 1M-element vector add (tests/bench).
bench: build
	cmake --build $(call shq,$(BUILD)) --target bench

test: build
	cd $(call shq,$(BUILD)) && ctest -j $(JOBS) --output-on-failure
	$(MAKE) fuzz

fuzz: deps
	CC=clang cmake -S . -B $(call shq,$(FUZZ_BUILD)) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_FUZZ=ON \
	  -DWS_FUZZ_SECONDS=$(call shq,$(FUZZ_SECONDS))
	cmake --build $(call shq,$(FUZZ_BUILD)) -j $(JOBS)
	cd $(call shq,$(FUZZ_BUILD)) && ctest -L fuzz --output-on-failure

sanitize: deps
	CC=clang cmake -S . -B $(call shq,$(SAN_BUILD)) -DCMAKE_BUILD_TYPE=Debug \
	  -DWS_SANITIZE=ON
	cmake --build $(call shq,$(SAN_BUILD)) -j $(JOBS)
	cd $(call shq,$(SAN_BUILD)) && ASAN_OPTIONS=detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest -j $(JOBS) -L 'unit|cli' --output-on-failure

# ThreadSanitizer over what runs threads: the worker pool's unit test and
# kernels simulated on 1, 2 and 3 threads (run --threads).
tsan: deps
	CC=clang cmake -S . -B $(call shq,$(TSAN_BUILD)) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_TSAN=ON
	cmake --build $(call shq,$(TSAN_BUILD)) -j $(JOBS) --target warpsim test_par
	cd $(call shq,$(TSAN_BUILD)) && TSAN_OPTIONS=halt_on_error=1 \
	  ctest -R 'unit_test_par|cli_threads_same' --output-on-failure

format: deps
	dist/format_check.sh --fix

format-check: deps
	dist/format_check.sh

# One job whatever JOBS says: the analysers are meant to stay short on a
# two-core machine (dist/lint.sh).
lint: deps
	dist/lint.sh $(call shq,$(LINT_BUILD))

# The command, bash completion, man page and config sources under PREFIX
# (DESTDIR for staging, as usual: cmake --install reads it from the
# environment, where make puts a DESTDIR given on its command line).
install: build
	cmake --install $(call shq,$(BUILD)) --prefix $(call shq,$(PREFIX))

clean:
	rm -rf $(call shq,$(BUILD)) $(call shq,$(FUZZ_BUILD)) \
	  $(call shq,$(SAN_BUILD)) $(call shq,$(TSAN_BUILD)) \
	  $(call shq,$(LINT_BUILD))
