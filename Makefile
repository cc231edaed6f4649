# Makefile - builds build/conclave and its tests; the entry points people use.
#
#   make            build build/conclave
#   make run        install missing packages (root), build, private Postgres,
#                   migrate, serve on :8080 (HTTP) and :8081 (WebSocket)
#   make test       the same set-up, then every test; ends "N passed, N failed"
#   make check      the quick tier (tests/check.txt), about 3 minutes
#   make asan       unit and integration tests under ASan + UBSan
#   make soak-skirmish  10,000 Skirmish self-play games with invariants, ASan
#   make lint       cppcheck and clang-tidy (C), ESLint and Prettier (JavaScript)
#   make format     clang-format in place (make format-check: fail on a drifted file)
#   make bench      benchmarks (see bench/README.md)
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS (60) each (tests/fuzz/fuzz.mk)
#   make mutants    deliberate bugs (tests/mutants/catalogue.txt) the tests must catch;
#                   long, not part of `make test`; MUTANTS='glob ...' for some only
#   make mutants-sample AREA='engine/rules/sprint ...' N=20 SEED=1
#                   a sampled mutation score: generated mutants of AREA's C files
#                   against its tests (tests/mutants/sample.py, tests/mutants/areas.txt)
#   make clean      remove build output (the private database in var/ stays)

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
CFLAGS  += -std=c11 -D_GNU_SOURCE $(OPT) -g -Wall -Wextra -Werror -MMD -MP \
           -I. -I/usr/include/postgresql $(SAN)
LDFLAGS += $(SAN)
LDLIBS  += -lmicrohttpd -lwebsockets -luv -lev -ljansson -lpq -lcurl -lssl -lcrypto -lpthread -lm

ENGINE_SRC := $(wildcard engine/*.c engine/rules/*/*.c engine/examples/*.c)
ENGINE_ASM := $(wildcard engine/rules/*/*.S)
# server/ is in rooms (docs/architecture.md); common/ is what api/, server/ and
# the fuzzers share.
COMMON_SRC := $(wildcard common/*.c)
SERVER_SRC := $(filter-out server/runtime/main.c,$(wildcard server/*/*.c)) $(COMMON_SRC)
API_SRC    := $(wildcard api/*.c)
LIB_OBJ    := $(patsubst %.c,$(BUILD)/obj/%.o,$(ENGINE_SRC) $(SERVER_SRC) $(API_SRC)) \
              $(patsubst %.S,$(BUILD)/obj/%.o,$(ENGINE_ASM))
# Unit tests: tests/unit/test_*.c for the core and the runtime, and
# tests/unit/RULESET/test_*.c for each ruleset's own; every one becomes
# $(BUILD)/tests/test_NAME (label unit/test_NAME in tests/run.sh).
UNIT_SRC   := $(wildcard tests/unit/test_*.c tests/unit/*/test_*.c)
UNIT_BIN   := $(addprefix $(BUILD)/tests/,$(basename $(notdir $(UNIT_SRC))))
# Test-only rulesets (tests/rules), linked into unit tests and benchmarks.
TRULES_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/rules/*.c))

.PHONY: all run test check unit asan lint lint-c lint-js format format-check bench clean deps db migrate mutants mutants-sample soak-skirmish
all: $(BUILD)/conclave

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# Data files (cards.json) are embedded with .incbin; rebuild when they change.
$(BUILD)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libconclave.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/conclave: $(BUILD)/obj/server/runtime/main.o $(BUILD)/libconclave.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

define unit_test_rule
$(BUILD)/tests/$(basename $(notdir $(1))): $(BUILD)/obj/$(1:.c=.o) $(TRULES_OBJ) $(BUILD)/libconclave.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach t,$(UNIT_SRC),$(eval $(call unit_test_rule,$(t))))

unit: $(BUILD)/conclave $(UNIT_BIN)

deps:
	@bash scripts/deps.sh

mutants: deps
	@$(MAKE) --no-print-directory unit
	@python3 tests/mutants/run.py $(MUTANTS)

AREA ?= engine/rules/sprint
N    ?= 20
SEED ?= 1
mutants-sample: deps
	@$(MAKE) --no-print-directory unit
	@python3 tests/mutants/sample.py --n $(N) --seed $(SEED) $(AREA)

db: deps
	@bash scripts/pg.sh start

run: deps $(BUILD)/conclave
	@BUILD=$(BUILD) bash scripts/run.sh

test: deps
	@$(MAKE) --no-print-directory unit
	@BUILD=$(BUILD) bash tests/run.sh

# The quick tier (tests/check.txt): unit tests and the fastest integration tests.
check: deps
	@$(MAKE) --no-print-directory unit
	@BUILD=$(BUILD) CONCLAVE_FUZZ_SMOKE=0 TESTS="$$(grep -v '^#' tests/check.txt | tr '\n' ' ')" \
	    bash tests/run.sh

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" unit
	@BUILD=build-asan ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    CONCLAVE_TEST_QUICK=1 bash tests/run.sh

# Skirmish self-play soak: 10,000 games, invariants after every input,
# under ASan + UBSan (docs/performance.md has the last run).
soak-skirmish:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    build-asan/tests/test_skirmish_selfplay
	SKIRMISH_GAMES=10000 ASAN_OPTIONS=detect_leaks=1 \
	    build-asan/tests/test_skirmish_selfplay

# Lint: cppcheck and clang-tidy (.clang-tidy; tests/.clang-tidy for the test
# code) on every C file, production and tests, two at a time; then ESLint and
# Prettier on the JavaScript (web/, tests/, bench/), installed from npm into
# tests/node_modules as the tests' own packages are.
LINT_C   = $(ENGINE_SRC) $(SERVER_SRC) server/runtime/main.c $(API_SRC) \
    $(wildcard tests/unit/*.c tests/unit/*/*.c tests/rules/*.c tests/fuzz/*.c bench/*.c \
      bench/*/*.c tests/plugin/*/engine/rules/*/*.c tests/plugin/*/tests/unit/*/*.c)
NODE_BIN  = tests/node_modules/.bin

lint: lint-c lint-js

lint-c:
	cppcheck -j2 --quiet --error-exitcode=1 --std=c11 --enable=warning,performance,portability \
	    --inline-suppr --suppress=missingIncludeSystem \
	    --include=/usr/include/jansson.h -I. engine common server api tests/unit tests/rules
	@echo "clang-tidy: $(words $(LINT_C)) files"
	@printf '%s\n' $(LINT_C) | xargs -P2 -n4 bash scripts/clang_tidy.sh

$(NODE_BIN)/eslint $(NODE_BIN)/prettier: tests/package.json
	cd tests && npm install --no-audit --no-fund --silent --no-package-lock
	@touch tests/node_modules $(NODE_BIN)/eslint $(NODE_BIN)/prettier

lint-js: $(NODE_BIN)/eslint $(NODE_BIN)/prettier
	$(NODE_BIN)/eslint -c tests/eslint.config.mjs web tests bench
	$(NODE_BIN)/prettier --check --log-level warn 'web/**/*.{js,css,html}' 'tests/**/*.mjs' \
	    'tests/**/*.ts' 'tests/plugin/**/*.js' 'bench/**/*.mjs'

# The C that clang-format keeps (.clang-format): `make format` rewrites it,
# `make format-check` (run by .ci/run) fails on any file that differs.
FORMAT_SRC = $(ENGINE_SRC) $(SERVER_SRC) server/runtime/main.c $(API_SRC) \
    $(wildcard engine/*.h engine/rules/*/*.h engine/examples/*.h common/*.h \
      server/*/*.h api/*.h tests/unit/*.[ch] tests/unit/*/*.[ch] tests/rules/*.[ch] \
      tests/fuzz/*.c \
      bench/*.[ch] bench/*/*.c tests/plugin/*/engine/rules/*/*.c tests/plugin/*/tests/unit/*/*.c)

format:
	clang-format -i $(FORMAT_SRC)

format-check:
	@echo "clang-format: $(words $(FORMAT_SRC)) files"
	@clang-format --dry-run --Werror $(FORMAT_SRC)

bench: deps $(BUILD)/conclave
	@bash bench/run.sh

# Benchmarks: the load generator (bench/*.c), built before `make bench` runs.
BENCH_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bench/*.c))

.PHONY: loadgen
loadgen: $(BUILD)/bench/loadgen

$(BUILD)/bench/loadgen: $(BENCH_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson -lcrypto -lm

bench: $(BUILD)/bench/loadgen

# Only the Sprint runs of bench/run.sh (`loadgen sprint`: 4-seat games,
# sealed orders): BENCH_SPRINT="10 50" games, BENCH_DURATION seconds.
# How much slowloris and hub floods slow an honest client (bench/abuse_latency.sh):
# the latency figures of the hostile and abuse_ws tests, printed, not asserted.
.PHONY: bench-abuse
bench-abuse: deps $(BUILD)/conclave
	@bash bench/abuse_latency.sh

.PHONY: bench-sprint
bench-sprint: deps $(BUILD)/conclave $(BUILD)/bench/loadgen
	@BENCH_GAMES=" " BENCH_FANOUT=" " BENCH_PEER=0 BENCH_SELFPLAY=0 bash bench/run.sh

# The asynchronous-scale run (bench/async.sh): ASYNC_GAMES stored games, of
# which ASYNC_OPEN wait on a player, ASYNC_RATE inputs/s (see the script).
.PHONY: bench-async
bench-async: deps $(BUILD)/conclave $(BUILD)/bench/loadgen
	@bash bench/async.sh

# Moves/s through HAProxy with 1, 2 and 3 processes (bench/cluster.sh,
# docs/scaling.md).
.PHONY: bench-cluster
bench-cluster: deps $(BUILD)/conclave $(BUILD)/bench/loadgen
	@bash bench/cluster.sh

# The apply path on a big state (bench/apply/inputs.c), against the private
# Postgres: `make bench-apply` (BENCH_APPLY_ARGS="units inputs readers").
.PHONY: bench-apply
bench-apply: $(BUILD)/bench/apply_inputs
	@bash scripts/pg.sh start >/dev/null
	DATABASE_URL="$$(bash scripts/pg.sh url)" $(BUILD)/bench/apply_inputs $(BENCH_APPLY_ARGS)

$(BUILD)/bench/apply_inputs: $(BUILD)/obj/bench/apply/inputs.o $(TRULES_OBJ) $(BUILD)/libconclave.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# What the WebSocket hub renders per input for a big game with 8 seats and
# spectators (bench/hub/render.c), no database: `make bench-hub`
# (BENCH_HUB_ARGS="inputs sectors").
.PHONY: bench-hub
bench-hub: $(BUILD)/bench/hub_render
	$(BUILD)/bench/hub_render $(BENCH_HUB_ARGS)

$(BUILD)/bench/hub_render: $(BUILD)/obj/bench/hub/render.o $(TRULES_OBJ) $(BUILD)/libconclave.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Heap bytes per game held in memory (bench/memory/games.c), on the private
# Postgres: `make bench-memory` (BENCH_MEMORY_ARGS="games ruleset seats").
.PHONY: bench-memory
bench-memory: $(BUILD)/bench/bench_memory
	@bash scripts/pg.sh start >/dev/null
	DATABASE_URL="$$(bash scripts/pg.sh url)" $(BUILD)/bench/bench_memory $(BENCH_MEMORY_ARGS)

$(BUILD)/bench/bench_memory: $(BUILD)/obj/bench/memory/games.o $(BUILD)/libconclave.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

include tests/fuzz/fuzz.mk

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD) build-asan -name '*.d' 2>/dev/null)
