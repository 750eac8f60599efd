/* small_stack.h: runs a test body on a thread with a small stack, so that
 * recursion whose depth grows with the input overflows it (and the
 * sanitizer build reports the overflow) where the main thread's 8 MiB
 * would hide it. */
#ifndef PCLC_TEST_SMALL_STACK_H
#define PCLC_TEST_SMALL_STACK_H

/* The stack size of on_small_stack's thread, in bytes. */
enum { SMALL_STACK_BYTES = 256 * 1024 };

/* Runs fn on a thread with a SMALL_STACK_BYTES stack and waits for it;
 * fails the current test if the thread cannot be created. */
void on_small_stack(void (*fn)(void));

#endif
