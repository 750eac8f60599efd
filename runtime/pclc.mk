# pclc.mk: GNU make rules that build PCL programs with pclc.
#
# Include it from a Makefile, then declare each program with pclc_program:
#
#     include $(shell pkg-config --variable=pclcmk pclrt)
#     PCLC_FLAGS += --schema-path schemas
#     $(eval $(call pclc_program,site,main.pp))   # ./site from main.pp
#     $(eval $(call pclc_program,out/net,network)) # out/net from network/*.pp
#
# `pclc_program,NAME,SOURCE` compiles SOURCE (a .pp file or a program
# directory) to NAME.c with `pclc -MD`, which also writes NAME.d, a Make
# dependency file naming every .pp and schema file the compilation read; the
# .d files are included, so editing a component or a schema rebuilds the
# program, and deleting one does not break the build.  NAME.c is then
# compiled and linked against libpclrt into NAME, with the flags pkg-config
# gives for pclrt.  Every declared program is added to PCLC_PROGRAMS, and the
# target `pclc-programs` builds them all; the first program declared is the
# default goal unless a rule comes before it.  A pattern rule also builds
# X.c from X.pp for any X; it writes X.d too, but only the dependency files
# of programs declared with pclc_program are included.
#
# Variables (set PCLC before the include or before pclc_program, since the
# rules read it when they are defined; the others are used lazily):
#   PCLC          the compiler (default `pclc` from PATH).  When it names a
#                 file by path, programs are rebuilt when it changes.
#   PCLC_FLAGS    extra pclc options, such as `--schema-path DIR`.
#   PKG_CONFIG    the pkg-config program (default `pkg-config`); set
#                 PKG_CONFIG_PATH to use an uninstalled runtime, such as the
#                 build tree's `build/pkgconfig`.
#   PCLC_CC       the C compiler for generated code (default $(CC)).
#   PCLC_CFLAGS   its flags (default -O2).
#   PCLC_LDFLAGS  extra link flags.
#   PCLC_LINK_DEPS  extra prerequisites of the executables, such as the
#                 runtime archive of an uninstalled build (set it before
#                 pclc_program).
#   PCLRT_CFLAGS, PCLRT_LIBS  the runtime's compile and link flags (default:
#                 from `$(PKG_CONFIG) --cflags/--libs pclrt`).

PCLC ?= pclc
PCLC_FLAGS ?=
PKG_CONFIG ?= pkg-config
PCLC_CC ?= $(CC)
PCLC_CFLAGS ?= -O2
PCLC_LDFLAGS ?=
PCLC_LINK_DEPS ?=

# pkg-config runs once, on first use; a missing runtime stops the build with
# a message only when a program is linked.
pclc_pkg = $(or $(pclc_pkg_$(1)_cache),$(eval pclc_pkg_$(1)_cache := $$(shell \
             $$(PKG_CONFIG) --$(1) pclrt || echo PCLC_PKG_CONFIG_FAILED))$(pclc_pkg_$(1)_cache))
pclc_checked = $(if $(findstring PCLC_PKG_CONFIG_FAILED,$(1)),$(error pkg-config cannot find \
                 pclrt; install pclc or set PKG_CONFIG_PATH to the folder of pclrt.pc),$(1))
PCLRT_CFLAGS ?= $(call pclc_checked,$(call pclc_pkg,cflags))
PCLRT_LIBS ?= $(call pclc_checked,$(call pclc_pkg,libs))

# A compiler given by path is a prerequisite of the generated C.
pclc_self = $(if $(findstring /,$(PCLC)),$(wildcard $(PCLC)))

# The prerequisites a program's C file has before its first compilation: the
# .pp file, or every .pp file of the directory.
pclc_sources = $(if $(filter %.pp,$(1)),$(1),$(wildcard $(patsubst %/,%,$(1))/*.pp))

PCLC_PROGRAMS :=

# pclc_program,NAME,SOURCE: see the header.
define pclc_program
$(1): $(1).c $(PCLC_LINK_DEPS)
	$$(PCLC_CC) $$(PCLC_CFLAGS) $$(PCLRT_CFLAGS) $$< $$(PCLC_LDFLAGS) $$(PCLRT_LIBS) -o $$@
$(1).c: $(call pclc_sources,$(2)) $$(pclc_self)
	@mkdir -p $$(@D)
	$$(PCLC) $$(PCLC_FLAGS) $(2) -o $$@ -MD
PCLC_PROGRAMS += $(1)
pclc-programs: $(1)
-include $(1).d
endef

%.c: %.pp $(pclc_self)
	$(PCLC) $(PCLC_FLAGS) $< -o $@ -MD

.PHONY: pclc-programs

# A failed compilation must not leave a partial C file behind.
.DELETE_ON_ERROR:
