/* small_stack.h: runs a test body on a thread with a small stack.
 *
 * What walks input from outside without recursion on purpose (the schema
 * loader's JSON scanner) is tested on a stack too small for a recursive
 * walk, so that recursion over the input's depth would overflow it (and the
 * sanitizer build report the overflow) where the main thread's 8 MiB would
 * hide it; and the phases' stack guard (base/stack.h) is tested on a stack
 * too small for the depth it is given. */
#ifndef PCLC_TEST_SMALL_STACK_H
#define PCLC_TEST_SMALL_STACK_H

#include <stddef.h>

/* Runs fn on a thread with a stack of the given size in bytes and waits
 * for it; fails the current test if the thread cannot be created. */
void on_small_stack(size_t bytes, void (*fn)(void));

#endif
