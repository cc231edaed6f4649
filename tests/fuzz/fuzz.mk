# tests/fuzz/fuzz.mk - libFuzzer harnesses (included by the Makefile).
#
#   make fuzz [FUZZ_SECONDS=60]   build every tests/fuzz/fuzz_*.c and run each
#                                 for FUZZ_SECONDS (tests/fuzz/run.sh)
#   make fuzz-build               build them only, into build-fuzz/
#
# The code under test is built with clang, -fsanitize=fuzzer-no-link plus
# AddressSanitizer and UndefinedBehaviorSanitizer, into build-fuzz/libfuzzed.a
# (everything but server/runtime/main.c and server/hub/hub.c, which fuzz_ws_message.c
# includes to reach its static functions); each harness links against it.

FUZZ_CC      ?= clang
FUZZ_DIR     := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -I. \
                -I/usr/include/postgresql $(FUZZ_SAN)
FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,\
                  $(filter-out server/hub/hub.c,$(ENGINE_SRC) $(SERVER_SRC) $(API_SRC))) \
                $(patsubst %.S,$(FUZZ_DIR)/obj/%.o,$(ENGINE_ASM))
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BIN)

fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run.sh

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_DIR)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/libfuzzed.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/libfuzzed.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -MF $@.d -o $@ $< \
	    $(FUZZ_DIR)/libfuzzed.a $(LDLIBS)

-include $(shell find $(FUZZ_DIR) -name '*.d' 2>/dev/null)
