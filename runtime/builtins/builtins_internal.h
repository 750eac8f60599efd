/* builtins_internal.h: helpers shared by the built-in function modules
 * (builtins_args.c, builtins_coll.c, builtins_encoding.c, builtins_file.c,
 * builtins_asset.c, builtins_misc.c) and not part of the public interface.
 *
 * A built-in reads its arguments through a pcl__bcall, which remembers the
 * marks met on the way (a SECRET to re-apply to the result, an UNKNOWN that
 * makes the result unknown) and the first failure.  Every reader returns
 * NULL (or false) when the argument is unknown or wrong; the function then
 * skips its work and pcl__b_finish turns the state into the result.  Every
 * non-static name here starts with pcl__. */
#ifndef PCL_BUILTINS_INTERNAL_H
#define PCL_BUILTINS_INTERNAL_H

#include "pcl_gen.h"

/* The state of one call of a built-in. */
typedef struct pcl__bcall {
  const char *fn;  /* The PCL name of the function, for messages. */
  pcl_error **err; /* Where the failure goes (the caller's err). */
  bool failed;     /* *err has been set. */
  bool unknown;    /* An argument was unknown: the result is UNKNOWN. */
  bool secret;     /* An argument held a SECRET: the result is SECRET. */
} pcl__bcall;

#define PCL__BCALL(name, errp) {(name), (errp), false, false, false}

/* Records a failure whose message is printf-formatted (the first one wins)
 * and returns false. */
bool pcl__b_fail(pcl__bcall *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records `<fn>: invalid value for "<param>" parameter: <why>` and returns
 * false. */
bool pcl__b_arg_fail(pcl__bcall *c, const char *param, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records the failure e (stolen) and returns false. */
bool pcl__b_fail_take(pcl__bcall *c, pcl_error *e);
/* Returns whether the call can go on (nothing failed and nothing unknown). */
static inline bool pcl__b_ok(const pcl__bcall *c) { return !c->failed && !c->unknown; }

/* Returns the text of the STRING s for a message: "[secret]" instead when
 * an argument of the call was secret or a redaction scope is open (the call
 * runs in an apply whose input is secret), so that no message shows a
 * secret in clear.  Borrowed from s (or static). */
const char *pcl__b_shown(const pcl__bcall *c, const pcl_value *s);
/* Returns the standard padded base64 of data[0..len) as a string (owned),
 * or NULL after recording the size-limit error in c when the text would
 * take more than the value size limit (checked before it is made). */
pcl_value *pcl__b_base64(pcl__bcall *c, const char *data, size_t len);
/* Returns v as messages show values (owned): "[secret]" when an argument
 * of the call was secret, else shortened past 64 characters. */
char *pcl__b_value_text(const pcl__bcall *c, const pcl_value *v);
/* Returns v without its SECRET wrappers (borrowed from v), noting the
 * secret in c. */
const pcl_value *pcl__b_unwrap(pcl__bcall *c, const pcl_value *v);
/* Reads the argument v at the top level: unwraps SECRET, notes UNKNOWN
 * (returns NULL), rejects null ("argument must not be null") and EVENTUAL
 * (returns NULL).  Returns the plain value, borrowed from v. */
const pcl_value *pcl__b_plain(pcl__bcall *c, const char *param, const pcl_value *v);
/* Reads a string parameter: a STRING, or an INT, NUMBER or BOOL in its
 * string form.  Returns an owned STRING, or NULL (failure or unknown). */
pcl_value *pcl__b_string(pcl__bcall *c, const char *param, const pcl_value *v);
/* Reads a number parameter: an INT or NUMBER, or a STRING holding a number.
 * Returns an owned INT or NUMBER, or NULL (failure or unknown). */
pcl_value *pcl__b_number(pcl__bcall *c, const char *param, const pcl_value *v);
/* Stores the whole number num (an INT or NUMBER) in *out and returns true
 * when it is integral and fits int64. */
bool pcl__b_whole_i64(const pcl_value *num, int64_t *out);
/* The message gocty gives for a number that is not a whole int64; the
 * value is named before it: "cannot use 2.5: value must be ...". */
#define PCL__WHOLE_I64_MSG \
  "value must be a whole number, between -9223372036854775808 and 9223372036854775807"

/* Returns the name of v's type as cty's FriendlyName spells it ("string",
 * "number", "bool", "list", "map", ...), static. */
const char *pcl__b_type_name(const pcl_value *v);
/* Returns whether v holds an UNKNOWN anywhere (EVENTUALs are not looked
 * into). */
bool pcl__b_has_unknown(const pcl_value *v);

/* Returns the call's result: NULL after a failure (result is released),
 * UNKNOWN when an argument was unknown, else result (stolen), wrapped in
 * SECRET when an argument was secret. */
pcl_value *pcl__b_finish(pcl__bcall *c, pcl_value *result);

/* -- Files (builtins_file.c). */

/* Records "<prefix>: <op> <path>: <system error>" with errnum's text
 * spelled as Go spells it. */
void pcl__b_os_error(pcl__bcall *c, const char *prefix, const char *op, const pcl_value *path,
                     int errnum);
/* Returns the STRING path resolved against base_dir (NULL or "": as it is;
 * an absolute path stays as it is) as an owned C string (free()). */
char *pcl__b_resolve(const char *base_dir, const pcl_value *path);

#endif
