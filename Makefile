# cairn: one static binary.  See README.md; `make help` lists the targets.
#
# Flavours, each in its own directory:
#   build/cairn          release: musl-gcc, static, stripped, LTO, mbedTLS+curl
#   build/san/cairn      host cc, dynamic, ASan+UBSan, test hooks on
#   build/tst/cairn      musl-gcc, static, test hooks on (crash points)
#   build/dbg/tests/     host cc, no sanitizers: unit tests run under valgrind
#   build/dbg/cairn      host cc, no sanitizers, symbols: for valgrind/perf/gdb
#   build/aarch64/cairn  release for arm64 (aarch64-linux-musl-gcc), `make cross`
#   build/armv7/cairn    release for 32-bit armv7 hard-float (arm-linux-musleabihf-gcc)
# Objects mirror the source tree under build/<flavour>/obj/.

VERSION := 0.1.0
-include config.mak

SRC_CORE := $(sort $(wildcard core/*/*.c))
SRC_NET  := $(sort $(wildcard net/*.c))
SRC_CMD  := $(sort $(wildcard cmd/*.c))
SRC_ALL  := $(SRC_CORE) $(SRC_NET) $(SRC_CMD)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT     := $(patsubst tests/unit/%.c,%,$(UNIT_SRC))

MUSL_CC ?= musl-gcc
HOST_CC ?= cc
VROOT   := .cache/vendor

WARN := -std=c11 -Wall -Wextra -Werror -pedantic -Wshadow \
  -Wmissing-prototypes -Wstrict-prototypes -Wold-style-definition \
  -Wmissing-declarations -Wundef -Wwrite-strings -Wredundant-decls \
  -Wpointer-arith -Wvla -Wformat=2 -Wimplicit-fallthrough \
  -Wdouble-promotion -Wfloat-conversion -Wcast-align \
  -Wno-overlength-strings
# Vendored headers are -isystem: their own redundant declarations (mbedTLS's
# psa/crypto.h) must not trip cairn's warning set.
DEFS := -D_GNU_SOURCE -DCAIRN_VERSION=\"$(VERSION)\" -Icore -I. -Ibuild/gen
DEPF := -MMD -MP

# Link-time optimisation: the modules split into files (docs/STYLE.md) call
# their shared helpers across files; with LTO they inline again (bench-parse
# validate of 10,000 resources: 667.7M instructions split without LTO,
# 623.9M with it, 636.2M before the split; callgrind).
REL_CFLAGS := $(WARN) $(DEFS) -O2 -flto=auto -ffunction-sections -fdata-sections \
  -ffile-prefix-map=$(CURDIR)=. \
  -isystem $(VROOT)/musl/include
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer
SAN_CFLAGS := $(WARN) $(DEFS) -O1 -g $(SAN_FLAGS) -DCAIRN_TEST=1 \
  -isystem $(VROOT)/host/include
TST_CFLAGS := $(REL_CFLAGS) -DCAIRN_TEST=1
# dbg: host cc without sanitizers, for valgrind (musl's long-double float
# formatting is not exact under valgrind's emulation, glibc's is); arena
# chunks from malloc (CAIRN_ARENA_MALLOC), whose fresh bytes memcheck tracks
# as undefined, instead of the huge-page slabs (core/base/arena.c).
DBG_CFLAGS := $(WARN) $(DEFS) -O1 -g -DCAIRN_TEST=1 -DCAIRN_ARENA_MALLOC=1 -isystem $(VROOT)/host/include
DBG_LDFLAGS := -L$(VROOT)/host/lib
# Static archives: each binary pulls in only the members it uses.
VLIBS      := -lcurl -lnghttp2 -lz -lmbedtls -lmbedx509 -lmbedcrypto -linih \
  -lprotobuf-c
REL_LDFLAGS := -flto=auto -O2 -static -s -Wl,--gc-sections -L$(VROOT)/musl/lib
SAN_LDFLAGS := $(SAN_FLAGS) -L$(VROOT)/host/lib
LIBS := -lpthread -lm

.PHONY: all release san tst test unit e2e check demo bench clean help vendor \
  fuzz fuzz-build fuzz-smoke gen cross

# `make ARCH=aarch64` / `make ARCH=armv7` build that architecture's release
# binary; the default is the host's (x86-64).
ARCH ?=
ifeq ($(ARCH),)
all: build/cairn
else ifneq ($(filter $(ARCH),aarch64 armv7),)
all: build/$(ARCH)/cairn
else
$(error ARCH must be aarch64 or armv7 (or empty for the host))
endif

help:
	@echo "make            build/cairn (static musl release)"
	@echo "make san        build/san/cairn (ASan+UBSan, dynamic)"
	@echo "make test       bootstrap, build both flavours, run every test"
	@echo "make demo       bootstrap, build, run examples/quickstart"
	@echo "make release    dist/cairn_VERSION_linux_{amd64,arm64,armv7} + SHA256SUMS"
	@echo "make cross      build/aarch64/cairn and build/armv7/cairn (static, musl)"
	@echo "make ARCH=A     only architecture A's release binary (aarch64, armv7)"
	@echo "make bench      benchmarks (scripts/bench*)"
	@echo "make fuzz       libFuzzer campaign, FUZZ_SECONDS per target"
	@echo "make fuzz-smoke each fuzz target on its corpus + a short run"

# ---- third-party libraries (recipe in vendor/) -------------------------
$(VROOT)/musl/.stamp: vendor/fetch-build.sh vendor/pins
	vendor/fetch-build.sh musl
$(VROOT)/host/.stamp: vendor/fetch-build.sh vendor/pins
	vendor/fetch-build.sh host
$(VROOT)/aarch64/.stamp: vendor/fetch-build.sh vendor/pins
	vendor/fetch-build.sh aarch64
$(VROOT)/armv7/.stamp: vendor/fetch-build.sh vendor/pins
	vendor/fetch-build.sh armv7
vendor: $(VROOT)/musl/.stamp $(VROOT)/host/.stamp

# ---- generated code ------------------------------------------------------
# The plugin protocol's C code (protobuf-c) is generated from proto/*.proto
# by protoc-c (Debian's protobuf-c-compiler, installed by scripts/bootstrap)
# into build/gen/proto/, once for every flavour: the output does not depend
# on the compiler flags.  Never committed.
PROTO     := $(sort $(wildcard proto/*.proto))
GEN_PB_C  := $(patsubst proto/%.proto,build/gen/proto/%.pb-c.c,$(PROTO))
GEN_PB_H  := $(GEN_PB_C:.c=.h)
build/gen/proto/%.pb-c.c build/gen/proto/%.pb-c.h: proto/%.proto
	@mkdir -p $(@D)
	$(if $(V),,@echo "  PROTOC  $<";)protoc-c --c_out=$(@D) -Iproto $<
gen: $(GEN_PB_C) $(GEN_PB_H)

# The pinned Debian versions, for `cairn version`: VENDOR_<KEY>_DEBIAN
# ("1:1.3.dfsg+really1.3.1-1") and VENDOR_<KEY>_VERSION (upstream: epoch and
# Debian revision removed).
build/gen/vendor_pins.h: vendor/pins
	@mkdir -p $(@D)
	@sed -n 's/^\([A-Z0-9_]*\)_DEBIAN_VERSION=\(.*\)$$/\1 \2/p' $< | \
	  while read -r k v; do u=$${v#*:}; \
	    printf '#define VENDOR_%s_DEBIAN "%s"\n#define VENDOR_%s_VERSION "%s"\n' \
	      "$$k" "$$v" "$$k" "$${u%-*}"; done >$@.tmp && mv $@.tmp $@

# The commit cairn is built from, for `cairn version`: git's HEAD ("-dirty"
# when the tree has changes), or CAIRN_COMMIT=... given to make (a source
# tarball without .git), else "unknown".  Rewritten only when it changes, so
# a build of the same commit stays byte-identical (docs/platforms.md).
CAIRN_COMMIT ?= $(shell c=$$(git rev-parse HEAD 2>/dev/null) && \
  { git diff --quiet HEAD -- 2>/dev/null && echo $$c || echo $$c-dirty; } || echo unknown)
build/gen/build_info.h: FORCE
	@mkdir -p $(@D)
	@printf '#define CAIRN_COMMIT "%s"\n' '$(CAIRN_COMMIT)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
FORCE:

# Entries under build/gen/ name generated files, which may not exist yet
# when the list is expanded: they are taken as written.
unit_deps = $(sort $(foreach m,$(shell cat tests/unit/$(1).deps),\
  $(if $(filter build/gen/%,$(m)),$(m),\
  $(basename $(wildcard $(m).c $(m)_*.c)))))

# ---- object rules per flavour --------------------------------------------
define flavour
$(1)_OBJ := $$(patsubst %.c,build/$(1)/obj/%.o,$$(SRC_ALL) $$(GEN_PB_C))
# Generated code is protoc-c's, not ours: compiled without cairn's warnings.
build/$(1)/obj/build/gen/%.o: build/gen/%.c | $$(VROOT)/$(3)/.stamp
	@mkdir -p $$(@D)
	$$(if $$(V),,@echo "  CC[$(1)] $$<";)$(2) $$($(4)) -w $$(DEPF) -c $$< -o $$@
build/$(1)/obj/core/%.o: core/%.c | $$(VROOT)/$(3)/.stamp build/gen/vendor_pins.h build/gen/build_info.h
	@mkdir -p $$(@D)
	$$(if $$(V),,@echo "  CC[$(1)] $$<";)$(2) $$($(4)) $$(DEPF) -c $$< -o $$@
build/$(1)/obj/%.o: %.c | $$(VROOT)/$(3)/.stamp build/gen/vendor_pins.h build/gen/build_info.h $$(GEN_PB_H)
	@mkdir -p $$(@D)
	$$(if $$(V),,@echo "  CC[$(1)] $$<";)$(2) $$($(4)) $$(DEPF) -c $$< -o $$@
build/$(1)/tests/%.o: tests/unit/%.c | $$(VROOT)/$(3)/.stamp build/gen/vendor_pins.h build/gen/build_info.h $$(GEN_PB_H)
	@mkdir -p $$(@D)
	$$(if $$(V),,@echo "  CC[$(1)] $$<";)$(2) $$($(4)) -Itests/unit $$(DEPF) -c $$< -o $$@
# Unit tests link the modules named in tests/unit/test_X.deps; an entry
# core/F/m stands for m.c and the m_*.c files that share its header (a
# module split into files, docs/STYLE.md), so a split needs no .deps edit.
# They always link the vendor libraries (static archives: only what is used
# is pulled in), so modules may use mbedTLS hashes.
build/$(1)/tests/%: build/$(1)/tests/%.o $$$$(addprefix build/$(1)/obj/,$$$$(addsuffix .o,$$$$(call unit_deps,$$$$*))) | $$(VROOT)/$(3)/.stamp
	$$(if $$(V),,@echo "  LD[$(1)] $$@";)$(2) $$(filter %.o,$$^) -o $$@ $$($(5)) $$(VLIBS) $$(LIBS)
endef
.SECONDEXPANSION:
.SECONDARY:
.DELETE_ON_ERROR:
$(eval $(call flavour,rel,$(MUSL_CC),musl,REL_CFLAGS,REL_LDFLAGS))
$(eval $(call flavour,san,$(HOST_CC),host,SAN_CFLAGS,SAN_LDFLAGS))
$(eval $(call flavour,tst,$(MUSL_CC),musl,TST_CFLAGS,REL_LDFLAGS))
$(eval $(call flavour,dbg,$(HOST_CC),host,DBG_CFLAGS,DBG_LDFLAGS))
# Cross flavours: the release flags with each architecture's vendor libraries
# (Debian's cross compilers and multiarch musl, docs/platforms.md).
CROSS_CC_aarch64 := aarch64-linux-musl-gcc
CROSS_CC_armv7   := arm-linux-musleabihf-gcc
aarch64_CFLAGS := $(subst $(VROOT)/musl/,$(VROOT)/aarch64/,$(REL_CFLAGS))
armv7_CFLAGS   := $(subst $(VROOT)/musl/,$(VROOT)/armv7/,$(REL_CFLAGS))
aarch64_LDFLAGS := $(subst $(VROOT)/musl/,$(VROOT)/aarch64/,$(REL_LDFLAGS))
armv7_LDFLAGS   := $(subst $(VROOT)/musl/,$(VROOT)/armv7/,$(REL_LDFLAGS))
$(eval $(call flavour,aarch64,$(CROSS_CC_aarch64),aarch64,aarch64_CFLAGS,aarch64_LDFLAGS))
$(eval $(call flavour,armv7,$(CROSS_CC_armv7),armv7,armv7_CFLAGS,armv7_LDFLAGS))
# Built for size: code that runs once per resource or per command at most
# (the utility providers' key, certificate and archive making and fetches,
# the commands that edit state or workspaces, init, the backends' wire
# code, whose time is the network's), not on the engine's or the gateway's
# paths, compiled with -Os in the release flavours so that the binary
# stays within its 3 MiB budget (docs/platforms.md).  GCC keeps each
# function's level through LTO.
SIZE_SRC := core/providers/prov_tls.c core/providers/tlscert.c \
  core/providers/prov_tls_certificate.c net/peerhttps.c \
  core/providers/tlskey.c core/providers/ed25519.c \
  core/providers/prov_archive.c core/providers/prov_cloudinit.c \
  core/providers/prov_http.c core/providers/prov_random.c \
  core/providers/prov_time.c core/providers/prov_external.c \
  core/providers/prov_local.c core/base/goarchive.c net/fetch.c \
  net/tlspeer.c net/be_pg.c net/pgwire.c net/be_http.c net/mirror.c \
  cmd/cmd_state_edit.c cmd/cmd_state_push.c cmd/cmd_workspace.c \
  cmd/cmd_init.c cmd/cmd_providers.c cmd/cmd_taint.c cmd/cmd_fmt.c \
  cmd/cmd_graph.c cmd/cmd_metadata.c cmd/cmd_force_unlock.c \
  cmd/cmd_backend.c cmd/cmd_console.c cmd/cmd_import.c cmd/cmd_output.c \
  cmd/cmd_state_read.c cmd/cmd_version.c cmd/cmd_help.c net/gateway_conf.c \
  core/engine/engine_ephemeral.c
# Once per run or per command, never per resource: the host and lock-file
# readers, plugin launch and its certificate, zip, `fmt`, `show`,
# `validate`, the flag parser, show -json's configuration.
SIZE_SRC += cmd/cmd_show.c cmd/cmd_validate.c cmd/cli.c cmd/cmd_apply.c \
  cmd/cmd_plan.c core/config/lockfile.c core/config/provver.c \
  core/config/ini.c core/config/hostcfg.c core/state/workspace.c \
  net/mtls.c net/plugin.c net/zip.c core/lang/fmt.c \
  core/views/jsonplan_config.c
# The actions (docs/actions.md), state selection, cross-type moves, the
# yaml and rsa functions and `show`'s renderer run once per command; the
# remote-provider and plugin clients (their time is the network's or the
# plugin's), the registry, the collection, string, regex, time, encoding
# and file functions, show -json's state and the variables' reader are
# not on the paths the benchmarks time (docs/performance.md).
SIZE_SRC += core/engine/engine_action.c core/config/config_action.c \
  core/views/render_action.c core/views/render_show.c cmd/cmd_state.c \
  cmd/cmd_state_select.c core/engine/engine_move.c core/lang/funcs_yaml.c \
  core/lang/funcs_rsa.c net/prov_https.c net/prov_plugin.c net/msgpack.c \
  net/grpc.c net/provreg.c core/lang/funcs_coll.c core/lang/funcs_str.c \
  core/lang/funcs_re.c core/lang/funcs_time.c core/lang/funcs_enc.c \
  core/lang/funcs_fs.c core/views/jsonplan_state.c core/engine/vars.c
$(patsubst %.c,build/rel/obj/%.o,$(SIZE_SRC)): REL_CFLAGS += -Os
$(patsubst %.c,build/tst/obj/%.o,$(SIZE_SRC)): TST_CFLAGS += -Os
$(patsubst %.c,build/aarch64/obj/%.o,$(SIZE_SRC)): aarch64_CFLAGS += -Os
$(patsubst %.c,build/armv7/obj/%.o,$(SIZE_SRC)): armv7_CFLAGS += -Os
build/cairn: $(rel_OBJ)
	$(if $(V),,@echo "  LD      $@";)$(MUSL_CC) $^ -o $@ $(REL_LDFLAGS) $(VLIBS) $(LIBS)
build/san/cairn: $(san_OBJ)
	$(if $(V),,@echo "  LD[san] $@";)$(HOST_CC) $^ -o $@ $(SAN_LDFLAGS) $(VLIBS) $(LIBS)
build/tst/cairn: $(tst_OBJ)
	$(if $(V),,@echo "  LD[tst] $@";)$(MUSL_CC) $^ -o $@ $(REL_LDFLAGS) $(VLIBS) $(LIBS)
build/dbg/cairn: $(dbg_OBJ)
	$(if $(V),,@echo "  LD[dbg] $@";)$(HOST_CC) $^ -o $@ $(DBG_LDFLAGS) $(VLIBS) $(LIBS)

build/aarch64/cairn: $(aarch64_OBJ)
	$(if $(V),,@echo "  LD[aarch64] $@";)$(CROSS_CC_aarch64) $^ -o $@ $(aarch64_LDFLAGS) $(VLIBS) $(LIBS)
build/armv7/cairn: $(armv7_OBJ)
	$(if $(V),,@echo "  LD[armv7] $@";)$(CROSS_CC_armv7) $^ -o $@ $(armv7_LDFLAGS) $(VLIBS) $(LIBS)
CROSS_BINS := build/aarch64/cairn build/armv7/cairn \
  $(foreach f,aarch64 armv7,$(addprefix build/$(f)/tests/,$(UNIT)))
cross: $(CROSS_BINS)

# `make release`: the three static binaries under dist/ with their SHA-256
# sums, named as Terraform names its packages.  Reproducible: the same
# commit built anywhere gives the same bytes (docs/platforms.md).
DIST_BINS := dist/cairn_$(VERSION)_linux_amd64 dist/cairn_$(VERSION)_linux_arm64 \
  dist/cairn_$(VERSION)_linux_armv7
dist/cairn_$(VERSION)_linux_amd64: build/cairn
dist/cairn_$(VERSION)_linux_arm64: build/aarch64/cairn
dist/cairn_$(VERSION)_linux_armv7: build/armv7/cairn
$(DIST_BINS):
	@mkdir -p $(@D)
	cp $< $@
dist/SHA256SUMS: $(DIST_BINS)
	cd dist && sha256sum $(notdir $(DIST_BINS)) >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS
release: dist/SHA256SUMS
	@cat dist/SHA256SUMS
san: build/san/cairn
tst: build/tst/cairn

UNIT_BINS := $(foreach f,rel san dbg,$(addprefix build/$(f)/tests/,$(UNIT)))

# ---- tests -----------------------------------------------------------------
test:
	@scripts/bootstrap
	@$(MAKE) -s --no-print-directory -j$$(nproc) build/cairn build/san/cairn build/tst/cairn $(UNIT_BINS) $(FUZZ_BINS) $(CROSS_BINS)
	@scripts/run-tests

unit: $(UNIT_BINS)
	@scripts/run-tests unit

e2e: build/cairn build/san/cairn build/tst/cairn
	@scripts/run-tests e2e

check:
	@scripts/check-style

# ---- fuzzing (docs/fuzzing.md) ---------------------------------------------
# libFuzzer targets tests/fuzz/fuzz_*.c, linked with every core/ and net/
# module compiled by clang with -fsanitize=fuzzer-no-link,address,undefined
# in build/fuzz/obj/ (no CAIRN_TEST: the code as released).
FUZZ_CC  ?= clang
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ     := $(patsubst tests/fuzz/%.c,%,$(FUZZ_SRC))
FUZZ_BINS := $(addprefix build/fuzz/,$(FUZZ))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer
# Three warnings clang gives where gcc (which lints every other flavour)
# does not: vsnprintf(fmt, ap) in a printf-like wrapper (the wrappers carry
# format attributes, so their callers are checked), unused static inline
# functions in a .c file, and glibc's INFINITY being a float.
FUZZ_WARN := $(WARN) -Wno-format-nonliteral -Wno-unused-function \
  -Wno-double-promotion
FUZZ_CFLAGS := $(FUZZ_WARN) $(DEFS) -O1 -g $(FUZZ_SAN) \
  -fsanitize=fuzzer-no-link \
  -isystem $(VROOT)/host/include
FUZZ_OBJ := $(patsubst %.c,build/fuzz/obj/%.o,$(SRC_CORE) $(SRC_NET) $(GEN_PB_C))
FUZZ_SECONDS ?= 300

# The plugin protocol's generated code (net/ links it): protoc-c's, without
# cairn's warnings, as in the other flavours.
build/fuzz/obj/build/gen/%.o: build/gen/%.c | $(VROOT)/host/.stamp
	@mkdir -p $(@D)
	$(if $(V),,@echo "  CC[fuzz] $<";)$(FUZZ_CC) $(FUZZ_CFLAGS) -w $(DEPF) -c $< -o $@
build/fuzz/obj/%.o: %.c | $(VROOT)/host/.stamp build/gen/vendor_pins.h build/gen/build_info.h $(GEN_PB_H)
	@mkdir -p $(@D)
	$(if $(V),,@echo "  CC[fuzz] $<";)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPF) -c $< -o $@
build/fuzz/%: build/fuzz/obj/tests/fuzz/%.o $(FUZZ_OBJ) | $(VROOT)/host/.stamp
	$(if $(V),,@echo "  LD[fuzz] $@";)$(FUZZ_CC) $^ -o $@ $(FUZZ_SAN) \
	  -fsanitize=fuzzer -L$(VROOT)/host/lib $(VLIBS) $(LIBS)

fuzz-build: $(FUZZ_BINS)
# A campaign: FUZZ_SECONDS per target (FUZZ_TARGETS to pick some).
fuzz: $(FUZZ_BINS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz campaign $(FUZZ_TARGETS)
# The CI smoke (part of `make test`): each corpus plus a short random run.
fuzz-smoke: $(FUZZ_BINS)
	@scripts/fuzz smoke $(FUZZ_TARGETS)

demo:
	@scripts/bootstrap
	@$(MAKE) --no-print-directory build/cairn
	@scripts/demo

bench: build/cairn
	@scripts/bench

clean:
	rm -rf build dist

-include $(shell find build -name '*.d' 2>/dev/null)
