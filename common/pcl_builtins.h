/* pcl_builtins.h: the built-in functions of PCL (../shared/spec/functions.md),
 * listed once for the compiler and the runtime.
 *
 * PCL__BUILTINS has one row per built-in:
 *
 *   X(ID, name, shape, min, max, (params), varargs)
 *
 * ID names it in both programs (FUNCS_<ID> in the checker, PCL__B_<ID>
 * here, the id that the bound tree and the IR carry); name is its PCL
 * spelling, an identifier, so that the runtime's function is
 * pcl_fn_<name>; shape says how a call reaches the runtime (the emitter
 * writes each call from it):
 *
 *   ARGS      pcl_fn_<name>(a0, ..., err): one parameter per argument,
 *             NULL for an optional one not given;
 *   FILE      pcl_fn_<name>(base_dir, a0, err): a path relative to the
 *             program's directory;
 *   VAR       pcl_fn_<name>(args, n, err): variadic;
 *   RUN       a value of the run (its stack, project, directories), which
 *             generated code reads from the run itself with
 *             pcl_run_<id>(run), the ID in lower case;
 *   EVENTUAL  secret, unsecret, getOutput, resourceExists: they act on
 *             eventual values, and generated code calls the runtime's
 *             future operations;
 *   LAZY      try, can, recover: their arguments are evaluated by the
 *             generated code, which reports each outcome to the runtime;
 *   INTRINSIC invoke, call, convert: bound by the checker against schemas
 *             and types, lowered to operations of their own.
 *
 * min and max are the arity: the checker reports a call outside it at the
 * call ("missing required parameter '<name>'", "too many arguments to call:
 * expected N, got M", as the reference binder does), and the runtime
 * checks it again for a call whose arguments are expanded from a list
 * (`f(xs...)`).  PCL__B_VARIADIC as max means any number from min.  params
 * names the positional parameters (min required, then optional ones), for
 * those messages; varargs names the variadic one, or is NULL.
 *
 * Adding a built-in: a row here, its typing in the checker's table
 * (compiler/bind/funcs.c), its pcl_fn_<name> in the runtime (runtime/
 * builtins/, declared in pcl.h) for the shapes that call one, and its lines
 * in docs/functions.md.  The header is macros only, so each side builds
 * the table it needs from the rows. */
#ifndef PCL_BUILTINS_H
#define PCL_BUILTINS_H

/* The max of a variadic built-in. */
#define PCL__B_VARIADIC 255

/* clang-format off */
#define PCL__BUILTINS(X)                                                                           \
  X(ELEMENT, element, ARGS, 2, 2, ("list", "index", NULL), NULL)                                   \
  X(ENTRIES, entries, ARGS, 1, 1, ("collection", NULL, NULL), NULL)                                \
  X(LENGTH, length, ARGS, 1, 1, ("value", NULL, NULL), NULL)                                       \
  X(LOOKUP, lookup, ARGS, 2, 3, ("map", "key", "default"), NULL)                                   \
  X(JOIN, join, ARGS, 2, 2, ("separator", "strings", NULL), NULL)                                  \
  X(SPLIT, split, ARGS, 2, 2, ("separator", "string", NULL), NULL)                                 \
  X(RANGE, range, ARGS, 1, 2, ("fromOrTo", "to", NULL), NULL)                                      \
  X(MIN, min, VAR, 1, PCL__B_VARIADIC, ("first", NULL, NULL), "rest")                              \
  X(MAX, max, VAR, 1, PCL__B_VARIADIC, ("first", NULL, NULL), "rest")                              \
  X(TO_JSON, toJSON, ARGS, 1, 1, ("value", NULL, NULL), NULL)                                      \
  X(TO_BASE64, toBase64, ARGS, 1, 1, ("value", NULL, NULL), NULL)                                  \
  X(FROM_BASE64, fromBase64, ARGS, 1, 1, ("value", NULL, NULL), NULL)                              \
  X(SHA1, sha1, ARGS, 1, 1, ("input", NULL, NULL), NULL)                                           \
  X(READ_FILE, readFile, FILE, 1, 1, ("path", NULL, NULL), NULL)                                   \
  X(FILEBASE64, filebase64, FILE, 1, 1, ("path", NULL, NULL), NULL)                                \
  X(FILEBASE64SHA256, filebase64sha256, FILE, 1, 1, ("path", NULL, NULL), NULL)                    \
  X(READ_DIR, readDir, FILE, 1, 1, ("path", NULL, NULL), NULL)                                     \
  X(MIME_TYPE, mimeType, ARGS, 1, 1, ("path", NULL, NULL), NULL)                                   \
  X(FILE_ASSET, fileAsset, FILE, 1, 1, ("path", NULL, NULL), NULL)                                 \
  X(STRING_ASSET, stringAsset, ARGS, 1, 1, ("value", NULL, NULL), NULL)                            \
  X(REMOTE_ASSET, remoteAsset, ARGS, 1, 1, ("uri", NULL, NULL), NULL)                              \
  X(FILE_ARCHIVE, fileArchive, FILE, 1, 1, ("path", NULL, NULL), NULL)                             \
  X(REMOTE_ARCHIVE, remoteArchive, ARGS, 1, 1, ("uri", NULL, NULL), NULL)                          \
  X(ASSET_ARCHIVE, assetArchive, ARGS, 1, 1, ("assets", NULL, NULL), NULL)                         \
  X(SECRET, secret, EVENTUAL, 1, 1, ("value", NULL, NULL), NULL)                                   \
  X(UNSECRET, unsecret, EVENTUAL, 1, 1, ("value", NULL, NULL), NULL)                               \
  X(SINGLE_OR_NONE, singleOrNone, ARGS, 1, 1, ("value", NULL, NULL), NULL)                         \
  X(TRY, try, LAZY, 1, PCL__B_VARIADIC, (NULL, NULL, NULL), "expressions")                         \
  X(CAN, can, LAZY, 1, 1, ("expression", NULL, NULL), NULL)                                        \
  X(RECOVER, recover, LAZY, 2, 2, ("value", "recovery", NULL), NULL)                               \
  X(NOT_IMPLEMENTED, notImplemented, ARGS, 1, 1, ("errorMessage", NULL, NULL), NULL)               \
  X(GET_OUTPUT, getOutput, EVENTUAL, 2, 2, ("stackReference", "outputName", NULL), NULL)           \
  X(RESOURCE_EXISTS, resourceExists, EVENTUAL, 2, 3, ("type", "id", "state"), NULL)                \
  X(STACK, stack, RUN, 0, 0, (NULL, NULL, NULL), NULL)                                             \
  X(PROJECT, project, RUN, 0, 0, (NULL, NULL, NULL), NULL)                                         \
  X(ORGANIZATION, organization, RUN, 0, 0, (NULL, NULL, NULL), NULL)                               \
  X(CWD, cwd, RUN, 0, 0, (NULL, NULL, NULL), NULL)                                                 \
  X(ROOT_DIRECTORY, rootDirectory, RUN, 0, 0, (NULL, NULL, NULL), NULL)                            \
  X(PULUMI_RESOURCE_TYPE, pulumiResourceType, ARGS, 1, 1, ("resource", NULL, NULL), NULL)          \
  X(PULUMI_RESOURCE_NAME, pulumiResourceName, ARGS, 1, 1, ("resource", NULL, NULL), NULL)          \
  X(INVOKE, invoke, INTRINSIC, 2, 3, ("token", "args", "invokeOptions"), NULL)                     \
  X(CALL, call, INTRINSIC, 3, 3, ("self", "method", "args"), NULL)                                 \
  X(CONVERT, convert, INTRINSIC, 2, 2, ("value", "type", NULL), NULL)
/* clang-format on */

/* The built-ins' identifiers, in the order of the rows. */
typedef enum pcl__builtin_id {
#define PCL__B_ID(id, name, shape, min, max, params, varargs) PCL__B_##id,
  PCL__BUILTINS(PCL__B_ID)
#undef PCL__B_ID
      PCL__B_COUNT
} pcl__builtin_id;

#endif
