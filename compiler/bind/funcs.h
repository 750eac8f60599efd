/* funcs: the built-in functions of PCL (../shared/spec/functions.md) as the
 * type checker sees them.
 *
 * One table lists every builtin once: its name, parameters (names, types,
 * optional and variadic ones), return type, whether its signature is
 * generic (computed from the arguments), and how eventual (output/promise)
 * arguments affect the result (functions.md §11).  funcs_check_call types
 * one call of an ordinary or generic builtin from its argument types: it
 * expands `f(xs...)`, checks the arity and that every argument converts to
 * InputType(parameter) (types.md §11), reports the reference's diagnostics,
 * and returns the call's type, lifted as the reference lifts it.
 *
 * The special forms `try`, `can` and `recover` (lazy, error-capturing) and
 * the intrinsics `invoke`, `call` and `convert` are in the table too, so that
 * lookups and later phases see one list, but the checker binds them itself
 * (they need scopes, literal tokens or schemas); funcs_check_call types the
 * three special forms from their argument types and must not be called for
 * the intrinsics. */
#ifndef PCLC_FUNCS_H
#define PCLC_FUNCS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/src.h"
#include "pcl_builtins.h"
#include "types/ty.h"

/* Every builtin: FUNCS_<ID> for each row of PCL__BUILTINS
 * (common/pcl_builtins.h), which lists their names, arities and parameters. */
typedef enum funcs_id {
#define FUNCS_ID(id, name, shape, min, max, params, varargs) FUNCS_##id = PCL__B_##id,
  PCL__BUILTINS(FUNCS_ID)
#undef FUNCS_ID
      FUNCS_COUNT = PCL__B_COUNT
} funcs_id;

/* How a builtin is bound. */
typedef enum funcs_form {
  FUNCS_ORDINARY, /* Fixed signature; arguments are evaluated first. */
  FUNCS_GENERIC,  /* Signature computed from the argument types. */
  FUNCS_SPECIAL,  /* try/can/recover: arguments evaluated lazily, errors caught. */
  FUNCS_INTRINSIC /* invoke/call/convert: bound by the checker itself. */
} funcs_form;

/* How eventual arguments shape the result type (functions.md §11). */
typedef enum funcs_lift {
  FUNCS_LIFT_GENERAL, /* output(R)/promise(R) when an argument is not assignable
                         to its parameter (types.md §11 rule 4). */
  FUNCS_LIFT_FIRST,   /* output(R) when the first argument contains an output
                         or promise anywhere (then the general rule). */
  FUNCS_LIFT_ALWAYS,  /* Always output(...) (secret, unsecret, getOutput, resourceExists,
                         recover). */
  FUNCS_LIFT_TRY,     /* try: output when an argument is eventual or dynamic. */
  FUNCS_LIFT_CAN,     /* can: output(bool) when the argument is output-like or dynamic. */
  FUNCS_LIFT_NEVER,   /* Never eventual (no eventual parameter). */
  FUNCS_LIFT_SCHEMA   /* invoke/call: from the schema (functions.md §8, §9). */
} funcs_lift;

/* The static description of one builtin: its row of PCL__BUILTINS, then
 * how the checker binds it. */
typedef struct funcs_builtin {
  funcs_id id;           /* Its identifier. */
  const char *name;      /* Name as written in programs. */
  size_t min_args;       /* Arguments required. */
  size_t max_args;       /* Arguments allowed, or PCL__B_VARIADIC. */
  size_t nparams;        /* Positional parameters: all of them, or the
                            required ones of a variadic builtin. */
  const char *params[3]; /* Their names, for "missing required parameter". */
  const char *varargs;   /* Name of the variadic parameter, or NULL. */
  bool expandable;       /* A call may expand its final argument (f(xs...)):
                            the runtime can call it by name with the
                            elements (the shapes ARGS, FILE and VAR of
                            pcl_builtins.h). */
  funcs_form form;       /* How calls are bound. */
  funcs_lift lift;       /* How eventual arguments shape the result. */
  bool eventual_args;    /* Receives eventual arguments as they are (secret,
                            unsecret, getOutput, resourceExists, try, can, recover, invoke,
                            call) instead of after resolution. */
  bool deep;             /* Looks inside its argument: nested eventuals
                            (list(output(T))) must be resolved too. */
} funcs_builtin;

/* One call to type: the argument types after checking, and where they are. */
typedef struct funcs_call {
  size_t nargs;              /* Number of arguments as written. */
  const ty *const *args;     /* Their types (borrowed). */
  const pcl_span *arg_spans; /* Their spans (borrowed). */
  pcl_span span;             /* The whole call, for arity errors. */
  bool expand_final;         /* `f(xs...)`: expand the last argument. */
  /* Where to store, for each argument as written, the parameter type it was
     checked against (before InputType), or NULL for a final argument that
     was expanded and for arguments of the special forms; NULL when the
     caller does not want them, else an array of nargs entries (borrowed). */
  const ty **params;
} funcs_call;

/* Returns the builtin called name, or NULL if there is none (the checker
 * then reports "unknown function '<name>'"). */
const funcs_builtin *funcs_lookup(const char *name);
/* Returns the builtin with the given id. */
const funcs_builtin *funcs_get(funcs_id id);
/* Types a call of fn (not an intrinsic): reports every problem to d and
 * returns NULL after one, else the call's type (owned by c), and fills
 * call->params when it is not NULL.  An argument that converts only unsafely
 * is accepted here; the caller knows whether it is a literal that can never
 * convert (a fractional number passed as an int).  A wrong number of
 * arguments is an error; an argument of a kind the function rejects
 * whatever its value (a number given to `element`, a type that does not
 * convert) is a run-time failure (diag_fail). */
const ty *funcs_check_call(ty_ctx *c, diag_list *d, const funcs_builtin *fn,
                           const funcs_call *call);

#endif
