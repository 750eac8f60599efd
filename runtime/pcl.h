/* pcl.h: the public interface of libpclrt, the runtime every program that
 * pclc emits links against.  It is the only header generated C includes,
 * and it is usable on its own from hand-written C.
 *
 * Ownership: arguments are borrowed and results are owned, unless a
 * function's name ends in _take (it steals the argument it names).
 *
 * The header has one section per runtime module; each section is kept by
 * that module. */
#ifndef PCL_H
#define PCL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== values
 * Tagged, refcounted, immutable values (runtime/value.c, bigint.c, str.c,
 * json.c). */

typedef struct pcl_value pcl_value;

/* ==================================================================== futures
 * Output and promise futures and the scheduler loop (runtime/future.c,
 * sched.c). */

/* =================================================================== builtins
 * PCL built-in functions (runtime/builtins*.c). */

/* ===================================================================== engine
 * The asynchronous engine interface, the embedded engine and its mocks
 * (runtime/engine*.c), config and the program entry point (runtime/config.c,
 * main.c). */

#ifdef __cplusplus
}
#endif

#endif
