# pclc: one non-recursive GNU Makefile for the compiler, the runtime library
# and every test.  Output goes to $(BUILD); `make check` builds a sanitizer
# variant in build/san and runs every test there, then the valgrind tests.

BUILD ?= build
CC ?= cc
PREFIX ?= /usr/local
DESTDIR ?=
OPT ?= -O2 -g
BISON ?= bison
FLEX ?= flex

# SAN=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer.
ifeq ($(SAN),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT := -O1 -g
endif

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wold-style-definition -Wwrite-strings -Wundef -Wformat=2 -Wvla \
        -Wimplicit-fallthrough -Wdouble-promotion -Werror
STD := -std=c11 -D_POSIX_C_SOURCE=200809L
CFLAGS_ALL := $(STD) $(OPT) $(SAN_FLAGS) -MMD -MP
CFLAGS_HAND := $(CFLAGS_ALL) $(WARN)
# Generated scanner and parser: the project flags minus the ones flex and
# bison output cannot meet.
GEN_CFLAGS := $(CFLAGS_ALL) -Wall -Wextra -Werror -Wno-unused-function -Wno-sign-compare \
              -Wno-unused-parameter
LDFLAGS_ALL := $(SAN_FLAGS) $(LDFLAGS)

# Include roots: a compiler file names the folder of what it includes
# ("bind/bound.h"); a runtime file the part of an internal header
# ("value/pcl_internal.h") and the installed headers of runtime/include by
# name; common/ (pcl_abi.h, semver.h) is on both paths.
COMPILER_INC = -Icompiler -Icommon -I$(GEN)
PUBLIC_INC := -Iruntime/include -Icommon
RUNTIME_INC := -Iruntime $(PUBLIC_INC)

COMPILER_LIBS := -ljansson -lgmp -lutf8proc -lnettle -pthread
RUNTIME_LIBS := -ljansson -lutf8proc -lnettle -larchive -lgmp -lgrpc -lgpr -lprotobuf-c -lm
CUNIT_LIBS := -lcunit

.DELETE_ON_ERROR:
.PHONY: all check check-all check-unit check-golden check-corpus check-valgrind \
        check-symbols update-golden demo deps install clean fuzz bench format

all: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/pkgconfig/pclrt.pc $(BUILD)/pulumi-language-pclc

# ---------------------------------------------------------------- front end
GEN := $(BUILD)/gen
$(GEN)/pcl.tab.c $(GEN)/pcl.tab.h &: grammar/pcl.y
	@mkdir -p $(GEN)
	$(BISON) -Wall -Werror -o $(GEN)/pcl.tab.c --header=$(GEN)/pcl.tab.h $<

$(GEN)/pcl.lex.c $(GEN)/pcl.lex.h &: grammar/pcl.l
	@mkdir -p $(GEN)
	$(FLEX) -o $(GEN)/pcl.lex.c --header-file=$(GEN)/pcl.lex.h $<

GEN_OBJS := $(BUILD)/obj/gen/pcl.tab.o $(BUILD)/obj/gen/pcl.lex.o
$(BUILD)/obj/gen/%.o: $(GEN)/%.c $(GEN)/pcl.tab.h $(GEN)/pcl.lex.h
	@mkdir -p $(dir $@)
	$(CC) $(GEN_CFLAGS) $(COMPILER_INC) -c $< -o $@

# ------------------------------------------------------------------- common
# Modules that the compiler, the runtime and the language host share
# (common/*.c): they depend on the C library only, are built once with the
# runtime's stricter flags and linked into pclc, libpclrt.a and
# pulumi-language-pclc, each of which defines pcl__out_of_memory (mem.h).
COMMON_SRCS := $(wildcard common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/obj/%.o)

$(BUILD)/obj/common/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) -Wconversion -Icommon -c $< -o $@

# ----------------------------------------------------------------- compiler
COMPILER_SRCS := $(wildcard compiler/*.c compiler/*/*.c)
COMPILER_OBJS := $(COMPILER_SRCS:%.c=$(BUILD)/obj/%.o) $(COMMON_OBJS)
COMPILER_LIB_OBJS := $(filter-out $(BUILD)/obj/compiler/main.o,$(COMPILER_OBJS)) $(GEN_OBJS)

$(BUILD)/obj/compiler/%.o: compiler/%.c | $(GEN)/pcl.tab.h $(GEN)/pcl.lex.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) $(COMPILER_INC) -c $< -o $@

$(BUILD)/pclc: $(COMPILER_OBJS) $(GEN_OBJS)
	$(CC) $(LDFLAGS_ALL) $^ $(COMPILER_LIBS) -o $@

# ------------------------------------------------------------------ runtime
# The engine protocol's messages (runtime/engine/proto/, docs/engine.md): protoc-c
# generates their C code into $(GEN)/proto at build time.
PROTO_SRCS := $(shell find runtime/engine/proto -name '*.proto' | LC_ALL=C sort)
PROTO_GEN := $(GEN)/proto
PROTO_C := $(PROTO_SRCS:runtime/engine/proto/%.proto=$(PROTO_GEN)/%.pb-c.c)
PROTO_H := $(PROTO_C:%.c=%.h)
PROTO_OBJS := $(PROTO_C:$(GEN)/%.c=$(BUILD)/obj/gen/%.o)
PROTOC_C ?= protoc-c

$(PROTO_C) $(PROTO_H) &: $(PROTO_SRCS)
	@mkdir -p $(PROTO_GEN)
	$(PROTOC_C) --c_out=$(PROTO_GEN) -Iruntime/engine/proto $(PROTO_SRCS)

$(BUILD)/obj/gen/proto/%.o: $(GEN)/proto/%.c $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Wall -Wextra -Werror -I$(PROTO_GEN) -c $< -o $@

RUNTIME_SRCS := $(wildcard runtime/*/*.c)
RUNTIME_OBJS := $(RUNTIME_SRCS:%.c=$(BUILD)/obj/%.o) $(COMMON_OBJS)

$(BUILD)/obj/runtime/%.o: runtime/%.c | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) -Wconversion $(RUNTIME_INC) -I$(PROTO_GEN) -c $< -o $@

# The library is one relocatable object in which the generated message code
# is made local, so that only pcl_ names are exported and a program that has
# protobuf-c code of its own for the same messages links without clashes.
$(BUILD)/libpclrt.a: $(RUNTIME_OBJS) $(PROTO_OBJS)
	@rm -f $@
	$(LD) -r -o $(BUILD)/obj/pclrt.o $^
	objcopy -w --localize-symbol='pulumirpc__*' --localize-symbol='google__protobuf__*' \
	  --localize-symbol='__odr_asan.pulumirpc__*' \
	  --localize-symbol='__odr_asan.google__protobuf__*' $(BUILD)/obj/pclrt.o
	ar rcs $@ $(BUILD)/obj/pclrt.o

# ------------------------------------------------------------ language host
# pulumi-language-pclc (host/, docs/host.md): its own messages (host/proto/,
# generated into $(GEN)/host-proto) beside the engine protocol's of
# runtime/engine/proto (Engine.Log, google.protobuf), whose generated code it
# links, and common/'s buffer; nothing of the compiler or the runtime.
HOST_PROTO_SRCS := $(shell find host/proto -name '*.proto' | LC_ALL=C sort)
HOST_PROTO_GEN := $(GEN)/host-proto
HOST_PROTO_C := $(HOST_PROTO_SRCS:host/proto/%.proto=$(HOST_PROTO_GEN)/%.pb-c.c)
HOST_PROTO_H := $(HOST_PROTO_C:%.c=%.h)
HOST_PROTO_OBJS := $(HOST_PROTO_C:$(GEN)/%.c=$(BUILD)/obj/gen/%.o)
HOST_SRCS := $(wildcard host/*.c)
HOST_OBJS := $(HOST_SRCS:%.c=$(BUILD)/obj/%.o)
HOST_INC := -Ihost -Icommon -I$(HOST_PROTO_GEN) -I$(PROTO_GEN)
HOST_LIBS := -lgrpc -lgpr -lprotobuf-c -ljansson -lnettle -lpthread

$(HOST_PROTO_C) $(HOST_PROTO_H) &: $(HOST_PROTO_SRCS) $(PROTO_SRCS)
	@mkdir -p $(HOST_PROTO_GEN)
	$(PROTOC_C) --c_out=$(HOST_PROTO_GEN) -Iruntime/engine/proto -Ihost/proto $(HOST_PROTO_SRCS)

# protoc-c initialises a message that starts with a oneof without the
# union's braces.
$(BUILD)/obj/gen/host-proto/%.o: $(GEN)/host-proto/%.c $(HOST_PROTO_H) $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Wall -Wextra -Werror -Wno-missing-braces -I$(HOST_PROTO_GEN) \
	  -I$(PROTO_GEN) -c $< -o $@

$(BUILD)/obj/host/%.o: host/%.c Makefile | $(HOST_PROTO_H) $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) -D_GNU_SOURCE -DHOST_VERSION='"$(VERSION)"' $(HOST_INC) -c $< -o $@

# The host takes from common/ its buffer, formatter and array growth only:
# the other modules would bring their libraries (utf8proc) with them.
HOST_COMMON_OBJS := $(BUILD)/obj/common/buf.o $(BUILD)/obj/common/mem.o

$(BUILD)/pulumi-language-pclc: $(HOST_OBJS) $(HOST_COMMON_OBJS) $(HOST_PROTO_OBJS) $(PROTO_OBJS)
	$(CC) $(LDFLAGS_ALL) $^ $(HOST_LIBS) -o $@

# pkg-config files from runtime/pclrt.pc.in: one for the build tree (used by
# the samples and by `pclc.mk` with PKG_CONFIG_PATH=$(BUILD)/pkgconfig; it
# carries the sanitizer flags of a SAN=1 build) and one for `make install`.
VERSION := $(shell sed -n 's/^\#define PCLC_VERSION "\(.*\)"$$/\1/p' compiler/main.c)
PC_SUBST = sed -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS@|$(RUNTIME_LIBS)|' \
                -e 's|@PREFIX@|$(1)|' -e 's|@LIBDIR@|$(2)|' -e 's|@INCLUDEDIR@|$(3)|' \
                -e 's|@PCLC@|$(4)|' -e 's|@PCLCMK@|$(5)|' -e 's|@EXTRA_FLAGS@|$(6)|' \
                -e 's| *$$||'
$(BUILD)/pkgconfig/pclrt.pc: runtime/pclrt.pc.in Makefile
	@mkdir -p $(dir $@)
	$(call PC_SUBST,$(abspath .),$(abspath $(BUILD)),$(abspath runtime/include),$(abspath $(BUILD))/pclc,$(abspath runtime)/pclc.mk,-I$(abspath common) $(SAN_FLAGS)) $< >$@

# --------------------------------------------------------------- unit tests
UNIT_C_SRCS := $(wildcard tests/unit/compiler/*.c)
UNIT_R_SRCS := $(wildcard tests/unit/runtime/*.c)

$(BUILD)/obj/tests/unit/compiler/%.o: tests/unit/compiler/%.c | $(GEN)/pcl.tab.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) $(COMPILER_INC) -Itests/unit/compiler -c $< -o $@

$(BUILD)/obj/tests/unit/runtime/%.o: tests/unit/runtime/%.c | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) $(RUNTIME_INC) -I$(PROTO_GEN) -Itests/unit/runtime -c $< -o $@

$(BUILD)/obj/tests/unit/main-%.o: tests/unit/unit_main.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) -Itests/unit/$* -c $< -o $@

$(BUILD)/tests/unit-compiler: $(UNIT_C_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/unit/main-compiler.o \
                              $(COMPILER_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) $^ $(CUNIT_LIBS) $(COMPILER_LIBS) -o $@

$(BUILD)/tests/unit-runtime: $(UNIT_R_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/unit/main-runtime.o \
                             $(BUILD)/libpclrt.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) $^ $(CUNIT_LIBS) $(RUNTIME_LIBS) -o $@

# The embedded engine behind a gRPC server (tests/engine/embedded_server.c),
# plain and with the conformance test providers' behaviour.
$(BUILD)/obj/tests/engine/%.o: tests/engine/%.c | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) $(RUNTIME_INC) -I$(PROTO_GEN) -c $< -o $@

$(BUILD)/obj/tests/conformance/mocks.o: tests/conformance/mocks.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) $(PUBLIC_INC) -c $< -o $@

$(BUILD)/tests/embedded-server: $(BUILD)/obj/tests/engine/embedded_server.o $(PROTO_OBJS) \
                                $(BUILD)/libpclrt.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) $^ $(RUNTIME_LIBS) -o $@

$(BUILD)/tests/embedded-server-conformance: $(BUILD)/obj/tests/engine/embedded_server.o \
    $(BUILD)/obj/tests/conformance/mocks.o $(PROTO_OBJS) $(BUILD)/libpclrt.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -Wl,--wrap=pcl_main -Wl,--wrap=pcl_gen_main $^ $(RUNTIME_LIBS) -o $@

UNIT_BINS := $(if $(UNIT_C_SRCS),$(BUILD)/tests/unit-compiler) \
             $(if $(UNIT_R_SRCS),$(BUILD)/tests/unit-runtime)

# -------------------------------------------------------------------- tests
# Every test target below runs against the binaries of $(BUILD).  `check`
# runs them all on a sanitizer build, then the valgrind job on a plain one.
check: deps
	$(MAKE) --no-print-directory BUILD=build/san SAN=1 check-all
	$(MAKE) --no-print-directory check-valgrind
	$(MAKE) --no-print-directory check-clang
	$(MAKE) --no-print-directory lint

check-all: check-layers check-dead-code check-unit check-golden check-corpus check-bind check-symbols \
           check-depfile check-docs check-io check-samples check-grpc check-determinism \
           check-conformance check-fuzz-programs check-host check-pulumi check-cli

check-unit: $(UNIT_BINS)
	@for t in $(UNIT_BINS); do echo "== $$t"; $$t || exit 1; done

# The codegen cases link the generated C with $(BUILD)/libpclrt.a, so they
# are compiled with the same sanitizer flags as that library.
check-golden: $(BUILD)/pclc $(BUILD)/libpclrt.a
	CGFLAGS="$(SAN_FLAGS)" tests/run-golden.sh $(BUILD)/pclc

update-golden: $(BUILD)/pclc $(BUILD)/libpclrt.a
	CGFLAGS="$(SAN_FLAGS)" UPDATE=1 tests/run-golden.sh $(BUILD)/pclc

check-corpus: $(BUILD)/pclc
	tests/corpus/parse-all.sh $(BUILD)/pclc
	tests/corpus/stress.sh $(BUILD)/pclc

.PHONY: check-bind
check-bind: $(BUILD)/pclc
	tests/corpus/bind-all.sh $(BUILD)/pclc

# The conformance corpus and the real-world programs compiled to C, built and
# run on the embedded engine (tests/conformance/run, tests/programs/run); the
# conformance tests and our own cases that pass there run again through the
# engine protocol against the embedded server with the test providers'
# behaviour, with engine.js in between for the tests with parameterized
# packages, whose RegisterPackage and package references are checked.
# Both runners always run; the target fails when either had a failure.
CONFORMANCE_JOBS ?= 4
# The test engine of the engine protocol and its Node.js packages (check-grpc
# below installs them).
ENGINE_JS := tests/engine/engine.js
ENGINE_MODULES := tests/engine/node_modules/.package-lock.json
.PHONY: check-conformance
check-conformance: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/tests/embedded-server-conformance \
                   $(ENGINE_MODULES)
	@st=0; \
	python3 tests/conformance/test_matchers.py || st=1; \
	python3 tests/conformance/test_runner.py --build $(BUILD) || st=1; \
	tests/conformance/run -j $(CONFORMANCE_JOBS) --build $(BUILD) \
	  --known-failures tests/conformance/known-failures.txt \
	  --grpc-server $(BUILD)/tests/embedded-server-conformance --node-engine $(ENGINE_JS) \
	  --grpc-known-failures tests/conformance/grpc-known-failures.txt ../shared/conformance || st=1; \
	tests/conformance/run -j $(CONFORMANCE_JOBS) --build $(BUILD) \
	  --grpc-server $(BUILD)/tests/embedded-server-conformance --node-engine $(ENGINE_JS) \
	  tests/conformance/cases || st=1; \
	tests/programs/run -j $(CONFORMANCE_JOBS) --build $(BUILD) ../shared/programs || st=1; \
	exit $$st

# Every sample of samples/ is compiled with $(BUILD)/pclc (through its own
# Makefile and runtime/pclc.mk), linked against $(BUILD)/libpclrt.a and run
# on the embedded engine; its outputs and snapshot must match its expected/
# files byte for byte.  UPDATE=1 rewrites them.
SAMPLES := $(patsubst samples/%/Makefile,%,$(wildcard samples/*/Makefile))
.PHONY: check-samples check-determinism
check-samples: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/pkgconfig/pclrt.pc
	@fail=0; for s in $(SAMPLES); do \
	  $(MAKE) --no-print-directory -s -C samples/$$s BUILD=$(abspath $(BUILD)) check || fail=1; \
	done; exit $$fail

# Every file includes only the headers its layer may see: the phases one
# way, the emitter only the IR and below, the runtime and the language host
# nothing of the compiler (the rules are in tests/check-layers.py).
.PHONY: check-layers
check-layers:
	python3 tests/check-layers.py

# No global that nothing else uses: a function or variable of a
# hand-written object (of pclc, libpclrt or the language host) that no
# other object of its program references is
# deleted or made static (from nm; libpclrt's installed headers and the
# names only tests use, each with its reason, are listed in
# tests/check-dead-code.py).
.PHONY: check-dead-code
check-dead-code: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/pulumi-language-pclc
	python3 tests/check-dead-code.py $(BUILD)

# The generated C that README.md and docs/ quote is found, line for line, in
# the golden files they name (tests/check-doc-excerpts.py).
.PHONY: check-docs
check-docs:
	python3 tests/check-doc-excerpts.py

# Output that cannot be written and input that cannot be read, for pclc and
# for a compiled program (tests/check-io.sh).
.PHONY: check-io
check-io: $(BUILD)/pclc $(BUILD)/libpclrt.a
	CGFLAGS="$(SAN_FLAGS)" tests/check-io.sh $(BUILD)/pclc

# pclc -MD / -MF driven by make through runtime/pclc.mk.
.PHONY: check-depfile
check-depfile: $(BUILD)/pclc
	tests/check-depfile.sh $(BUILD)/pclc

# The engine protocol (docs/engine.md): tests/engine's Node.js packages are
# installed from the committed lockfile when missing; every sample is checked
# through gRPC with engine.js (Pulumi's generated code) in front of the
# embedded server, the fault cases run against engine.js, the wire form of
# byte strings and of a call's arguments is checked through engine.js in
# front of the embedded server with the conformance test providers'
# behaviour (tests/engine/wire), and the samples' request streams are
# compared with those of the same programs written for the Node.js SDK
# (tests/engine/differential).
ENGINE_PROGRAMS := $(patsubst tests/engine/programs/%/main.pp,$(BUILD)/tests/engine-programs/%, \
                     $(wildcard tests/engine/programs/*/main.pp))
.PHONY: check-grpc engine-modules
$(ENGINE_MODULES): tests/engine/package.json tests/engine/package-lock.json
	cd tests/engine && npm ci --no-audit --no-fund --loglevel=error

engine-modules: $(ENGINE_MODULES)

# The programs of tests/engine/programs.  Their components are in subfolders:
# a change to any of them rebuilds them all.
$(BUILD)/tests/engine-programs/%: tests/engine/programs/%/main.pp \
    $(wildcard tests/engine/programs/*/*/*.pp) $(BUILD)/pclc $(BUILD)/libpclrt.a
	@mkdir -p $(dir $@)
	$(BUILD)/pclc --schema-path samples/schemas --schema-path ../shared/conformance/providers \
	  tests/engine/programs/$* -o $@.c
	$(CC) $(STD) -O1 -g $(SAN_FLAGS) $(PUBLIC_INC) $@.c $(BUILD)/libpclrt.a $(LDFLAGS_ALL) \
	  $(RUNTIME_LIBS) -o $@

check-grpc: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/pkgconfig/pclrt.pc \
            $(BUILD)/tests/embedded-server $(BUILD)/tests/embedded-server-conformance \
            $(ENGINE_PROGRAMS) $(ENGINE_MODULES)
	@fail=0; for s in $(SAMPLES); do \
	  $(MAKE) --no-print-directory -s -C samples/$$s BUILD=$(abspath $(BUILD)) \
	    NODE_ENGINE=$(abspath $(ENGINE_JS)) check-grpc || fail=1; \
	done; \
	tests/engine/faults $(BUILD)/tests/engine-programs || fail=1; \
	tests/engine/wire --server $(BUILD)/tests/embedded-server-conformance \
	  $(BUILD)/tests/engine-programs || fail=1; \
	tests/engine/differential/run --server $(BUILD)/tests/embedded-server --engine $(ENGINE_JS) \
	  --build $(BUILD) || fail=1; exit $$fail

# Pulumi's own tools, built from the modules tests/pulumi/go.mod pins
# (tests/pulumi/build-tools) when missing: the CLI and the language
# conformance suite.  One copy serves every build variant.
PULUMI_BIN := build/pulumi
PULUMI_CLI := $(PULUMI_BIN)/pulumi
PULUMI_SUITE := $(PULUMI_BIN)/pulumi-test-language
.PHONY: pulumi-tools check-pulumi
$(PULUMI_CLI) $(PULUMI_SUITE) &: tests/pulumi/go.mod tests/pulumi/go.sum
	tests/pulumi/build-tools $(PULUMI_BIN)

pulumi-tools: $(PULUMI_CLI) $(PULUMI_SUITE)

# The language host against Pulumi's conformance suite: every l1-, l2- and
# l3- test (tests/pulumi/conformance.js, tests/pulumi/README.md).
PULUMI_TESTDATA = $$(cd tests/pulumi && go list -m -f '{{.Dir}}' \
  github.com/pulumi/pulumi/pkg/v3)/testing/pulumi-test-language/tests/testdata
check-pulumi: $(BUILD)/pulumi-language-pclc $(BUILD)/pclc $(BUILD)/libpclrt.a \
              $(BUILD)/pkgconfig/pclrt.pc $(PULUMI_SUITE) $(ENGINE_MODULES)
	node tests/pulumi/conformance.js --suite $(PULUMI_SUITE) --host $(BUILD)/pulumi-language-pclc \
	  --testdata $(PULUMI_TESTDATA) --known-failures tests/pulumi/known-failures.txt

# The Pulumi CLI end to end with runtime: pclc and a local backend
# (tests/pulumi/cli.sh): stacks, config and secrets, preview, up, an update
# whose diff is the program's, refresh, a stack reference, destroy, a
# compile error in the CLI, and no secret in clear in the state.
.PHONY: check-cli
check-cli: $(BUILD)/pulumi-language-pclc $(BUILD)/pclc $(BUILD)/libpclrt.a \
           $(BUILD)/pkgconfig/pclrt.pc $(PULUMI_CLI)
	tests/pulumi/cli.sh $(PULUMI_CLI) $(BUILD)

# The language host against engines that misbehave, programs that do not
# compile, a missing C compiler, a failing schema loader and cancelled
# requests (tests/pulumi/host-faults.js, with tests/engine/engine.js as the
# engine): clear answers in time, and no process left behind.
.PHONY: check-host
check-host: $(BUILD)/pulumi-language-pclc $(BUILD)/pclc $(BUILD)/libpclrt.a \
            $(BUILD)/pkgconfig/pclrt.pc $(ENGINE_MODULES)
	node tests/pulumi/host-faults.js --host $(BUILD)/pulumi-language-pclc

# Every sample and every tests/golden/codegen case is compiled twice in
# different directories and environments; the outputs must be identical.
check-determinism: $(BUILD)/pclc
	tests/check-determinism.sh $(BUILD)/pclc

# The compiler and the runtime built with clang (optimised, every warning an
# error, with clang's UndefinedBehaviorSanitizer, whose checks differ from
# gcc's: an offset applied to a null pointer, say), then the unit tests, the
# golden cases (whose generated C clang compiles too) and the samples on that
# build: what gcc accepts and clang rejects, or what behaves differently,
# shows here.
CLANG ?= clang
.PHONY: check-clang
check-clang:
	$(MAKE) --no-print-directory BUILD=build/clang CC=$(CLANG) \
	  SAN_FLAGS="-fsanitize=undefined -fno-sanitize-recover=all" check-unit check-golden check-samples

# clang-tidy with the checks of .clang-tidy over the sources that ship, one
# stamp per file so that only changed files are checked again (any header
# change checks everything).  About two minutes of CPU for the whole tree.
# clang-tidy's count of the warnings it suppressed goes to stderr: it is
# shown only when the file fails.
CLANG_TIDY ?= clang-tidy
LINT_HEADERS := $(wildcard compiler/*/*.h common/*.h runtime/*/*.h host/*.h)
LINT_STAMPS := $(patsubst %.c,$(BUILD)/lint/%.ok,$(COMPILER_SRCS) $(COMMON_SRCS) $(RUNTIME_SRCS) \
                 $(HOST_SRCS))
lint_flags = $(STD) $(if $(filter compiler/%,$(1)),$(COMPILER_INC), \
               $(if $(filter host/%,$(1)),-D_GNU_SOURCE -DHOST_VERSION='"$(VERSION)"' $(HOST_INC), \
                 $(RUNTIME_INC) -I$(PROTO_GEN)))
$(BUILD)/lint/%.ok: %.c .clang-tidy $(LINT_HEADERS) | $(GEN)/pcl.tab.h $(GEN)/pcl.lex.h $(PROTO_H) \
                                                     $(HOST_PROTO_H)
	@mkdir -p $(dir $@)
	@echo "clang-tidy $<"
	@$(CLANG_TIDY) --quiet $< -- $(call lint_flags,$<) 2>$@.log || { cat $@.log; exit 1; }
	@rm -f $@.log
	@touch $@

.PHONY: lint
lint: $(LINT_STAMPS)

# The front-end tests again under valgrind, on a build without sanitizers,
# and the samples' runs, on the embedded engine and through gRPC.
VALGRIND_RUN := valgrind -q --error-exitcode=99 --leak-check=full \
  --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect
check-valgrind: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/tests/embedded-server $(ENGINE_MODULES)
	VALGRIND=1 tests/run-golden.sh $(BUILD)/pclc ast errors types check
	$(MAKE) --no-print-directory check-samples RUN_WRAPPER="$(VALGRIND_RUN)"
	@fail=0; for s in $(SAMPLES); do \
	  $(MAKE) --no-print-directory -s -C samples/$$s BUILD=$(abspath $(BUILD)) \
	    RUN_WRAPPER="$(VALGRIND_RUN)" check-grpc || fail=1; \
	done; exit $$fail

# Every global symbol of the runtime library is in the pcl_ namespace
# (AddressSanitizer's own __odr_asan.* markers aside).
check-symbols: $(BUILD)/libpclrt.a
	@bad=$$(nm -g --defined-only $< | \
	  awk 'NF == 3 && $$3 !~ /^pcl_/ && $$3 !~ /^__odr_asan\./ {print $$3}'); \
	if [ -n "$$bad" ]; then echo "symbols outside pcl_: $$bad"; exit 1; fi; \
	echo "check-symbols: every exported symbol starts with pcl_"

# ------------------------------------------------------------ fuzz, bench
# `make fuzz` builds the libFuzzer targets of tests/fuzz/ with clang
# (ASan + UBSan) and runs each for FUZZ_SECONDS (tests/fuzz/run.sh): the
# parser (fuzz_parse), the whole compiler pipeline on programs
# (fuzz_compile) and on package schemas (fuzz_schema), the runtime's input
# readers: JSON (fuzz_json), config values and config files (fuzz_config),
# mocks files (fuzz_mocks) and stack-reference files (fuzz_stackref), and
# the decoding of the engine's answers (fuzz_rpc, seeded with answers built
# by @pulumi/pulumi's generated code).  FUZZ_TARGETS picks some of them;
# findings land in $(BUILD)/fuzz/artifacts/<target>/.
FUZZ_SECONDS ?= 60
# Seconds one input may take before libFuzzer reports a hang; raise it on a
# loaded machine, where the wall clock also counts time spent descheduled.
FUZZ_TIMEOUT ?= 5
FUZZ_CC ?= clang
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_TARGETS ?= parse compile schema json config mocks stackref rpc
FUZZ_CFLAGS := $(STD) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined -MMD -MP
FUZZ_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter-out compiler/main.c,$(COMPILER_SRCS))) \
             $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(COMMON_SRCS)) \
             $(FUZZ_DIR)/obj/gen/pcl.tab.o $(FUZZ_DIR)/obj/gen/pcl.lex.o
# The runtime built the same way, with the engine protocol's messages.
FUZZ_RT_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(RUNTIME_SRCS) $(COMMON_SRCS)) \
                $(PROTO_C:$(GEN)/%.c=$(FUZZ_DIR)/obj/gen/%.o)
FUZZ_RUNTIME_TARGETS := json config mocks stackref rpc

$(FUZZ_DIR)/obj/compiler/%.o: compiler/%.c | $(GEN)/pcl.tab.h $(GEN)/pcl.lex.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(filter-out -Werror,$(WARN)) \
	  $(COMPILER_INC) -c $< -o $@

$(FUZZ_DIR)/obj/common/%.o: common/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(filter-out -Werror,$(WARN)) \
	  -Icommon -c $< -o $@

$(FUZZ_DIR)/obj/runtime/%.o: runtime/%.c | $(PROTO_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(filter-out -Werror,$(WARN)) \
	  $(RUNTIME_INC) -I$(PROTO_GEN) -c $< -o $@

$(FUZZ_DIR)/obj/gen/proto/%.o: $(GEN)/proto/%.c $(PROTO_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -I$(PROTO_GEN) -c $< -o $@

$(FUZZ_DIR)/obj/gen/%.o: $(GEN)/%.c $(GEN)/pcl.tab.h $(GEN)/pcl.lex.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(COMPILER_INC) -c $< -o $@

$(FUZZ_DIR)/fuzz_parse $(FUZZ_DIR)/fuzz_compile: $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(WARN) $(COMPILER_INC) $^ \
	  $(COMPILER_LIBS) -o $@

$(FUZZ_DIR)/fuzz_schema: tests/fuzz/fuzz_compile.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_SCHEMA -fsanitize=fuzzer $(WARN) $(COMPILER_INC) $^ \
	  $(COMPILER_LIBS) -o $@

$(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_RUNTIME_TARGETS)): $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c \
                                                      $(FUZZ_RT_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(WARN) $(RUNTIME_INC) -I$(PROTO_GEN) $^ \
	  $(RUNTIME_LIBS) -o $@

# fuzz_rpc's seeds are made with the engine test's npm modules.
fuzz: $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS)) \
      $(if $(filter rpc,$(FUZZ_TARGETS)),$(ENGINE_MODULES))
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) \
	  tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_TARGETS)

# A fixed batch of generated programs (tests/fuzz/README.md), the unit tests
# of the generator's models, and the reproducers of the bugs it found, which
# must still fail (a fixed one fails the target until its entry is removed
# from tests/fuzz/known-findings.txt and tests/fuzz/findings/).
FUZZ_CHECK_SEEDS ?= 1-40
.PHONY: check-fuzz-programs
check-fuzz-programs: $(BUILD)/pclc $(BUILD)/libpclrt.a
	python3 tests/fuzz/test_progfuzz.py
	tests/fuzz/fuzz-programs --build $(BUILD) --seeds $(FUZZ_CHECK_SEEDS) \
	  --cflags "$(STD) $(WARN) $(SAN_FLAGS)" --libs "$(RUNTIME_LIBS)"
	tests/fuzz/fuzz-programs --build $(BUILD) --check-findings tests/fuzz/findings \
	  --cflags "$(STD) $(WARN) $(SAN_FLAGS)" --libs "$(RUNTIME_LIBS)"

# `make fuzz-programs` generates random well-typed PCL programs and checks
# each one end to end: pclc compiles it, its C compiles with $(WARN), it runs
# clean under the sanitizers and prints the stack outputs the generator
# expects (tests/fuzz/README.md).  It uses the sanitizer build build/san
# unless BUILD is given, runs for FUZZ_SECONDS with FUZZ_JOBS programs at a
# time, and takes seeds from a counter kept in <build>/fuzz-programs/next-seed,
# so each run tries new programs; findings go to <build>/fuzz-programs/findings/.
FUZZ_JOBS ?= 1
ifeq ($(origin BUILD),command line)
FUZZ_PROGRAMS_MAKE := BUILD=$(BUILD)
else
FUZZ_PROGRAMS_MAKE := BUILD=build/san SAN=1
endif
.PHONY: fuzz-programs fuzz-programs-run print-fuzz-cflags print-fuzz-libs
fuzz-programs:
	@$(MAKE) --no-print-directory $(FUZZ_PROGRAMS_MAKE) fuzz-programs-run

fuzz-programs-run: $(BUILD)/pclc $(BUILD)/libpclrt.a
	@mkdir -p $(BUILD)/fuzz-programs
	tests/fuzz/fuzz-programs --build $(BUILD) --seconds $(FUZZ_SECONDS) -j $(FUZZ_JOBS) \
	  --counter $(BUILD)/fuzz-programs/next-seed --cflags "$(STD) $(WARN) $(SAN_FLAGS)" \
	  --libs "$(RUNTIME_LIBS)"

# The flags generated C is compiled and linked with by tests/fuzz/fuzz-programs.
print-fuzz-cflags:
	@echo $(STD) $(WARN) $(SAN_FLAGS)

print-fuzz-libs:
	@echo $(RUNTIME_LIBS)

# `make bench` times the parser on generated 1k/10k/100k-resource programs;
# use an optimised build (the default OPT) and no sanitizers.
bench: $(BUILD)/pclc
	bench/run.sh $(BUILD)/pclc $(BUILD)/bench

# `make bench-codegen` times pclc --check and -o, the C compilers on the
# generated code and the run on the embedded engine (bench/run-codegen.sh);
# BASELINE=<a build of another pclc> measures both in the same run.
.PHONY: bench-codegen
bench-codegen: $(BUILD)/pclc $(BUILD)/libpclrt.a
	BASELINE="$(BASELINE)" bench/run-codegen.sh $(BUILD)/pclc $(BUILD) $(BUILD)/bench

# `make bench-runtime` measures registrations on the embedded engine
# (time and peak memory per resource at 1k/10k/100k resources).
.PHONY: bench-runtime
$(BUILD)/bench/runtime-bench: bench/runtime-bench.c $(BUILD)/libpclrt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_HAND) $(PUBLIC_INC) $< $(BUILD)/libpclrt.a $(LDFLAGS_ALL) $(RUNTIME_LIBS) -o $@

bench-runtime: $(BUILD)/bench/runtime-bench
	$<

# `make bench-grpc` measures the gRPC backend against tests/engine/engine.js:
# 200 resources answered after 50 ms with PULUMI_PARALLEL=32, and the CPU
# cost per resource over the embedded engine next to the Node.js SDK's
# (bench/grpc-bench.py).
.PHONY: bench-grpc
bench-grpc: $(BUILD)/pclc $(BUILD)/libpclrt.a $(ENGINE_MODULES)
	bench/grpc-bench.py $(BUILD) $(BUILD)/bench/grpc

# `make bench-host` times `pulumi up` of 1,000 resources with runtime: pclc,
# cold (the host compiles) and warm (cached), and the CPU shares of the host
# with the program and of the engine (bench/host-up.py).
.PHONY: bench-host
bench-host: $(BUILD)/pulumi-language-pclc $(BUILD)/pclc $(BUILD)/libpclrt.a \
            $(BUILD)/pkgconfig/pclrt.pc $(PULUMI_CLI)
	bench/host-up.py $(PULUMI_CLI) $(BUILD)

# `make bench-scaling` grows each kind of input from 10,000 to 100,000
# (program attributes, locals, list elements, computed keys, resources,
# packages, schema properties, types and methods; at run time config keys,
# range instances, mocks entries, stack reference outputs, list and map
# values) and prints the growth factor of the time of each: at most 12 for
# ten times the input (bench/scaling.py).
.PHONY: bench-scaling
bench-scaling: $(BUILD)/pclc $(BUILD)/libpclrt.a $(BUILD)/pkgconfig/pclrt.pc
	bench/scaling.py $(BUILD) $(BUILD)/bench/scaling

# `make bench-memory` measures pclc's peak memory per byte of source at
# 10,000 and 100,000 resources and on a 50 MiB program, next to HashiCorp's
# HCL parser's (bench/memory.py).  The parser is built with Go from
# bench/hclparse, whose modules come from the Go module proxy (Go is needed
# for this benchmark only).
.PHONY: bench-memory
$(BUILD)/bench/hclparse: bench/hclparse/main.go bench/hclparse/go.mod bench/hclparse/go.sum
	@mkdir -p $(dir $@)
	cd bench/hclparse && go build -o $(abspath $@) .

bench-memory: $(BUILD)/pclc $(BUILD)/bench/hclparse
	bench/memory.py $(BUILD)/pclc $(BUILD)/bench/hclparse $(BUILD)/bench/memory

deps:
	@.ci/deps

# `make demo` compiles the website sample with pclc, builds it with cc
# against libpclrt and runs it on the embedded engine, which prints the stack
# outputs (samples/website/Makefile, through runtime/pclc.mk).
demo: deps all
	@$(MAKE) --no-print-directory -C samples/website BUILD=$(abspath $(BUILD)) run

# `make install PREFIX=... DESTDIR=...`: the compiler, the language host, the
# runtime library and header, pclrt.pc for pkg-config and pclc.mk (rules for
# user Makefiles).
# The installed pclrt.pc is written on each install, since PREFIX may change.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/pclc $(BUILD)/install
	$(call PC_SUBST,$(PREFIX),$${prefix}/lib,$${prefix}/include,$${exec_prefix}/bin/pclc,$${prefix}/share/pclc/pclc.mk,) \
	  runtime/pclrt.pc.in >$(BUILD)/install/pclrt.pc
	install -m 755 $(BUILD)/pclc $(DESTDIR)$(PREFIX)/bin/pclc
	install -m 755 $(BUILD)/pulumi-language-pclc $(DESTDIR)$(PREFIX)/bin/pulumi-language-pclc
	install -m 644 $(BUILD)/libpclrt.a $(DESTDIR)$(PREFIX)/lib/libpclrt.a
	install -m 644 runtime/include/pcl.h runtime/include/pcl_engine.h runtime/include/pcl_gen.h \
	  common/pcl_abi.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/install/pclrt.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/pclrt.pc
	install -m 644 runtime/pclc.mk $(DESTDIR)$(PREFIX)/share/pclc/pclc.mk

format:
	clang-format -i compiler/*.c compiler/*/*.[ch] common/*.[ch] runtime/*/*.[ch] host/*.[ch] tests/unit/*/*.[ch]

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
