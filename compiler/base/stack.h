/* stack: the large stack the compiler's phases run on, and the guard that
 * stops their recursion before its end.
 *
 * The binder, the checker, the type operations, the lowering, the emitter
 * and the dumps recurse over trees and types, which nest as deep as the
 * input: a chain of 100,000 operators is an expression 100,000 levels deep.
 * As rustc and Go's HCL parser do, pclc gives that recursion room instead of
 * unrolling it by hand: stack_run runs the phases on a thread whose stack is
 * STACK_SIZE bytes of reserved address space, which costs nothing until it
 * is touched (a program 100,000 deep touches a few hundred KiB per thousand
 * levels, and pages nobody touched are never committed).  And as clang
 * does, every recursive function asks stack_too_deep before it goes one
 * level deeper: when less than the reserve is left it reports "expression
 * nested too deeply" at the node it was about to enter and returns an error
 * result instead of recursing, so that input of any depth ends in a located
 * error with status 1, never in a crash.
 *
 * The reservation is an mmap with MAP_NORESERVE: Linux then commits no
 * memory for it (overcommit modes 0 and 1), only the pages the recursion
 * touches.  An address-space limit (RLIMIT_AS, `ulimit -v`, which issue 19's
 * tests run pclc under) still counts reserved address space, and so does a
 * data limit (RLIMIT_DATA counts private writable mappings): the stack then
 * takes at most a quarter of the smaller limit, so that the heap keeps the
 * rest, and when even the smaller stacks cannot be mapped the phases run on
 * the calling thread.  The guard measures whatever stack the calling thread
 * has, so it holds on the main thread and on any other thread too (the unit
 * tests and the fuzzers call the phases directly): only the depth accepted
 * is smaller there.
 *
 * Using the guard: a recursive function of a phase starts with
 *
 *     if (stack_too_deep(&c->too_deep, c->diag, e->span))
 *       return <the phase's error result>;
 *
 * where c->too_deep is a bool of the phase's context, false at the start,
 * which makes the error be reported once per phase however many subtrees
 * reach the limit.  A function that has no diagnostics to report to (a type
 * operation) calls stack_low and returns its own error result; its caller
 * reports. */
#ifndef PCLC_STACK_H
#define PCLC_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/src.h"

/* The stack stack_run asks for by default: address space reserved, not
 * committed. */
#define STACK_SIZE ((size_t)1 << 30)

/* The room stack_low keeps free below the deepest frame it lets through,
 * for the work done there (a diagnostic's formatting, a library call):
 * 1 MiB, or an eighth of a stack smaller than 8 MiB. */
#define STACK_RESERVE ((size_t)1 << 20)

/* Runs fn(arg) on a new thread whose stack is size bytes (STACK_SIZE when
 * size is 0; less under an address-space or data limit, see above), waits
 * for it and returns what fn returned.  When no such thread can be made,
 * runs fn on the calling thread.  fn may call stack_run again (it then gets
 * a thread of its own). */
int stack_run(size_t size, int (*fn)(void *arg), void *arg);

/* Reads a stack size written as a number of bytes with an optional suffix
 * K, M or G (powers of 1024), as the environment variable PCLC_STACK_SIZE
 * gives it (like rustc's RUST_MIN_STACK): stores it in *size and returns
 * true, or returns false for anything else (0 included). */
bool stack_parse_size(const char *text, size_t *size);

/* Returns true when the calling thread has less than the reserve left
 * below the caller's frame: a recursive function must then not go
 * deeper. */
bool stack_low(void);

/* Returns false when there is room to recurse.  When there is not, reports
 * "expression nested too deeply" at span to d unless *reported is already
 * set, sets *reported, and returns true: the caller then returns its error
 * result instead of recursing. */
bool stack_too_deep(bool *reported, diag_list *d, pcl_span span);

/* Reports "expression nested too deeply" at span to d unless *reported is
 * already set, and sets *reported: for a phase that learnt of the lack of
 * stack another way (a type operation's, ty_take_too_deep). */
void stack_report_too_deep(bool *reported, diag_list *d, pcl_span span);

/* Returns the size in bytes of the calling thread's stack as the guard
 * measures it (for tests and for the documentation of limits). */
size_t stack_size(void);

#endif
