# run.mk: running a sample and checking its result.  Included last by every
# sample's Makefile, after intree.mk and pclc.mk and after the program is
# declared with pclc_program.
#
# Reads PROGRAM (the executable), SOURCE (what pclc compiles) and RUN_ARGS
# (extra options of the run, such as --config KEY=VALUE).  A mocks.json
# beside the Makefile is passed with --mocks.  RUN_WRAPPER, empty by
# default, prefixes the program's command line (`make check-valgrind` runs
# the samples under valgrind this way).  Targets:
#   all     build the program;
#   run     build it and run it on the embedded engine, printing the stack
#           outputs (the snapshot goes to $(O)/snapshot.json);
#   check   check that pclc reports no diagnostic for the program, run it,
#           and compare the printed outputs and the snapshot byte for byte
#           with expected/outputs.json and expected/snapshot.json; the run
#           must print nothing on stderr.  With UPDATE=1 the expected files
#           are rewritten from the run first (review them with git diff);
#   check-grpc  the same check through the engine protocol: the program runs
#           as `pulumi up` runs it, against the embedded engine behind a gRPC
#           server ($(BUILDDIR)/tests/embedded-server), with NODE_ENGINE
#           (tests/engine/engine.js) in between when set; that engine's
#           outputs and snapshot must match expected/ (tests/engine/run-sample);
#           RUN_WRAPPER prefixes the program's command line here too.

MOCKS := $(wildcard mocks.json)
RUN := $(RUN_WRAPPER) $(PROGRAM) --project $(SAMPLE) --stack dev --snapshot $(O)/snapshot.json \
       $(if $(MOCKS),--mocks $(MOCKS)) $(RUN_ARGS)

.PHONY: all run check check-grpc
all: $(PROGRAM)

run: $(PROGRAM)
	$(RUN)

check: $(PROGRAM)
	@$(PCLC) --check $(PCLC_FLAGS) $(SOURCE) 2>$(O)/pclc.err; status=$$?; \
	if [ $$status -ne 0 ] || [ -s $(O)/pclc.err ]; then \
	  echo "FAIL $(SAMPLE): pclc --check reported diagnostics (exit status $$status):"; \
	  cat $(O)/pclc.err; exit 1; fi
	@$(RUN) >$(O)/outputs.json 2>$(O)/run.err; status=$$?; \
	if [ $$status -ne 0 ] || [ -s $(O)/run.err ]; then \
	  echo "FAIL $(SAMPLE): the run exited with status $$status; stderr:"; \
	  cat $(O)/run.err; exit 1; fi
	@if [ "$(UPDATE)" = 1 ]; then \
	  mkdir -p expected; \
	  for f in outputs.json snapshot.json; do \
	    if ! cmp -s $(O)/$$f expected/$$f; then \
	      cp $(O)/$$f expected/$$f; echo "updated samples/$(SAMPLE)/expected/$$f"; fi; \
	  done; fi
	@fail=0; for f in outputs.json snapshot.json; do \
	  if [ ! -f expected/$$f ]; then \
	    echo "FAIL $(SAMPLE): no expected/$$f (run with UPDATE=1)"; fail=1; \
	  elif ! cmp -s expected/$$f $(O)/$$f; then \
	    echo "FAIL $(SAMPLE): $$f differs from expected/$$f:"; \
	    diff -u --label expected/$$f --label actual expected/$$f $(O)/$$f | head -100; fail=1; \
	  fi; done; \
	[ $$fail = 0 ] && echo "ok $(SAMPLE)"

check-grpc: $(PROGRAM)
	@$(TOP)/tests/engine/run-sample --server $(BUILDDIR)/tests/embedded-server \
	  $(if $(NODE_ENGINE),--node $(NODE_ENGINE)) $(if $(RUN_WRAPPER),--wrapper "$(RUN_WRAPPER)") \
	  --name $(SAMPLE) --out $(O)/grpc -- \
	  $(PROGRAM) --project $(SAMPLE) --stack dev $(if $(MOCKS),--mocks $(MOCKS)) $(RUN_ARGS)
