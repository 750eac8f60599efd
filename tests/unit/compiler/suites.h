/* Compiler unit-test suites: one X(name) per tests/unit/compiler/test_name.c. */
X(ty)
X(schema)
X(funcs)
X(ptrmap)
X(parse)
X(depfile)
X(bind)
X(backend)
