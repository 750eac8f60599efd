# intree.mk: settings that build a sample against the pclc and libpclrt of
# this source tree instead of installed ones.  Included first by every
# sample's Makefile.
#
# BUILD is the build directory of the tree (default `build`, relative to the
# repository root, or absolute), as for the top-level Makefile; run `make`
# (or `make BUILD=...`) at the root first.  Sets:
#   TOP         the repository root (absolute);
#   BUILDDIR    the build directory (absolute);
#   PCLC        $(BUILDDIR)/pclc;
#   PCLC_LINK_DEPS  $(BUILDDIR)/libpclrt.a, so a rebuilt runtime relinks;
#   PKG_CONFIG  pkg-config reading $(BUILDDIR)/pkgconfig first, where the
#               top-level Makefile writes a pclrt.pc for the build tree;
#   SAMPLE      the sample's name (its folder name);
#   O           where the sample's outputs go: $(BUILDDIR)/samples/$(SAMPLE).

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
BUILD ?= build
BUILDDIR := $(if $(filter /%,$(BUILD)),$(BUILD),$(TOP)/$(BUILD))
PCLC := $(BUILDDIR)/pclc
PCLC_LINK_DEPS := $(BUILDDIR)/libpclrt.a
# GNU make 4.3 does not pass exported variables to $(shell), so the search
# path is given on pkg-config's own command line.
PKG_CONFIG := PKG_CONFIG_PATH=$(BUILDDIR)/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH)) pkg-config
SAMPLE := $(notdir $(CURDIR))
O := $(BUILDDIR)/samples/$(SAMPLE)

ifeq ($(wildcard $(PCLC)),)
$(error $(PCLC) does not exist; run `make BUILD=$(BUILD)` at the top of the tree first)
endif
