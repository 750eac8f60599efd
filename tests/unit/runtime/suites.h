/* Runtime unit-test suites: one X(name) per tests/unit/runtime/test_name.c. */
X(future)
X(sched)
X(value)
X(int)
X(number)
X(str)
X(json)
X(main)
