# progfuzz: a generator of random well-typed PCL programs whose stack outputs
# it knows in advance, and the pieces it is built from.
#
#   values.py   the run-time value model: what every operation, conversion and
#               built-in function computes (../shared/spec, DECISIONS.md D3, D9,
#               D10), including where secrets end up;
#   ptypes.py   the static types of the checker that the generator needs to
#               produce only programs that type-check (types.md §4-§9);
#   source.py   how values and templates are written as PCL source text;
#   exprgen.py  the expression generator: (source, static type, value) triples;
#   proggen.py  whole programs: config, locals, resources with range,
#               components, invokes, outputs, and the command line to run them;
#   compare.py  the comparison of a run's stack outputs with the expected ones.
#
# Everything is deterministic from the seed given to proggen.generate; only
# the Python standard library is used.
