/* schema: Pulumi package schemas, loaded lazily from --schema-path folders.
 *
 * A schema_set knows a list of folders holding `<pkg>.json` and
 * `<pkg>-<version>.json` files (program.md §3.2; the conformance
 * `providers/` folder has that form).  Adding a folder only lists its file
 * names; a package's file is read and parsed (with jansson) the first time a
 * program refers to the package, and its resources, functions and types are
 * decoded one by one as they are looked up.  Several versions of one package
 * may be loaded side by side (a resource option `version`, a `package`
 * block); without a requested or pinned version the highest semver wins.
 *
 * Type tokens are resolved the way the reference binder does: `pkg:Member`
 * and `pkg::Member` mean `pkg:index:Member`, and both the written token and
 * every schema token are canonicalised through the package's
 * `meta.moduleFormat` rule, so `aws:s3:Bucket` finds `aws:s3/bucket:Bucket`;
 * schema `aliases` are honoured; `pulumi:providers:<pkg>` names the provider
 * of <pkg>; the package `pulumi` is built in (StackReference, Stash).
 *
 * Schema types map to ty types as types.md §14 says: input-shaped properties
 * (non-`plain` ones in resource inputs and output-form invoke arguments) are
 * `union(T, output(T'))` at every level, non-required properties are
 * `optional(...)`, `const` properties are const types, schema object types
 * are *named* ty objects (declared, then defined), so recursive types are
 * fine.  A `$ref` to a resource has the type of a reference to that resource
 * (its outputs as output(T), plus id and urn), not the plain object of
 * types.md §14: that is what makes `resource = otherResource` type-check
 * for resource-typed inputs (conformance l2-component-property-deps).
 * Every problem with a schema file (unreadable, invalid JSON, no `name`, a
 * bad `$ref`, malformed sections) is a diagnostic located in the schema file
 * where possible; nothing here aborts on bad input.
 *
 * Everything returned lives in the compilation's arena (or the set) and stays
 * valid until schema_set_free; names and tokens are interned. */
#ifndef PCLC_SCHEMA_H
#define PCLC_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/intern.h"
#include "base/src.h"
#include "types/ty.h"

/* The kinds of raw schema types (before mapping to ty), defined once. */
#define SCHEMA_TYPE_KINDS(X)                                                                       \
  X(BOOL, "boolean")      /* Primitive `boolean`. */                                               \
  X(INT, "integer")       /* Primitive `integer`. */                                               \
  X(NUMBER, "number")     /* Primitive `number`. */                                                \
  X(STRING, "string")     /* Primitive `string`. */                                                \
  X(ARRAY, "array")       /* `type: array` with `items`. */                                        \
  X(MAP, "map")           /* `type: object` with `additionalProperties` (or none). */              \
  X(OBJECT, "object")     /* `$ref` to an object type of `types`. */                               \
  X(ENUM, "enum")         /* `$ref` to an enum type of `types`. */                                 \
  X(RESOURCE, "resource") /* `$ref` to a resource (or `#/provider`). */                            \
  X(TOKEN, "token")       /* `$ref` to an undefined type that names its `type`. */                 \
  X(ANY, "any")           /* `pulumi.json#/Any`. */                                                \
  X(JSON, "json")         /* `pulumi.json#/Json`. */                                               \
  X(ASSET, "asset")       /* `pulumi.json#/Asset` (accepts archives too). */                       \
  X(ARCHIVE, "archive")   /* `pulumi.json#/Archive`. */                                            \
  X(UNION, "union")       /* `oneOf`. */                                                           \
  X(ERROR, "error")       /* A type that could not be decoded (already reported). */

typedef enum schema_type_kind {
#define X(name, text) SCHEMA_T_##name,
  SCHEMA_TYPE_KINDS(X)
#undef X
} schema_type_kind;

typedef struct schema_set schema_set;
typedef struct schema_package schema_package;
typedef struct schema_type schema_type;
typedef struct schema_typedef schema_typedef;
typedef struct schema_property schema_property;
typedef struct schema_resource schema_resource;
typedef struct schema_function schema_function;

/* One entry of a discriminated union's `mapping`. */
typedef struct schema_mapping {
  const char *value; /* Discriminator value (interned). */
  const char *ref;   /* The `$ref` it selects, as written. */
} schema_mapping;

/* A decoded schema type. */
struct schema_type {
  schema_type_kind kind; /* Selects the fields below that are meaningful. */
  bool plain;      /* Written with `plain: true`: never input-shaped. */
  const char *ref; /* The `$ref` as written, or NULL. */
  /* ARRAY, MAP: the element type. */
  const schema_type *elem;
  /* OBJECT, ENUM: the type definition (in its own package). */
  schema_typedef *def;
  /* RESOURCE: the referenced resource. */
  schema_resource *resource;
  /* TOKEN: the token and its underlying primitive type (may be NULL). */
  const char *token;
  const schema_type *underlying;
  /* UNION: the alternatives, in schema order, and the discriminator. */
  const schema_type *const *alts; /* The alternatives. */
  size_t nalts;                   /* Number of alternatives. */
  const char *discriminator;      /* Property name, or NULL. */
  const schema_mapping *mapping;  /* Discriminator value to `$ref`, in schema order. */
  size_t nmapping;                /* Number of mapping entries. */
};

/* An object or enum type of a package's `types` section. */
struct schema_typedef {
  const char *token;   /* The schema token (interned). */
  schema_package *pkg; /* The package that defines it. */
  bool is_enum;        /* An enum rather than an object type. */
  bool decoded;        /* Properties / values have been read. */
  bool decoding;       /* Being decoded (internal). */
  const char *description; /* May be NULL. */
  /* Object types: the properties, in schema order. */
  schema_property *props; /* The properties. */
  size_t nprops;          /* Number of properties. */
  /* Enums: the underlying primitive kind and the member values as const
     types (bool, int, number or string), in schema order. */
  schema_type_kind enum_base;    /* BOOL, INT, NUMBER or STRING. */
  const ty *const *enum_values;  /* Member values. */
  const char *const *enum_names; /* Member names (`name`, may be NULL each). */
  size_t nenum;                  /* Number of members. */
  /* Mapped ty types (internal caches): the plain and the input shape. */
  const ty *ty_plain, *ty_input;
};

/* A property of a resource, function or object type. */
struct schema_property {
  const char *name;               /* Interned property name. */
  const schema_type *type;        /* Its schema type (never NULL). */
  bool required;                  /* Listed in `required` / `requiredInputs`. */
  bool plain;                     /* `plain: true`: never input-shaped. */
  bool secret;                    /* `secret: true`. */
  bool replace_on_changes;        /* `replaceOnChanges: true`. */
  const char *description;        /* May be NULL. */
  const char *deprecation;        /* `deprecationMessage`, or NULL. */
  const ty *const_value;          /* `const`: a const type, or NULL. */
  const ty *default_value;        /* `default`: a const type, or NULL. */
  const char *const *default_env; /* `defaultInfo.environment` variables. */
  size_t ndefault_env;            /* Number of default_env entries. */
  /* Mapped ty types (internal caches, see schema_property_type). */
  const ty *ty_plain, *ty_input;
};

/* A method of a resource: its name and the function that implements it. */
typedef struct schema_method {
  const char *name;  /* Method name (interned). */
  const char *token; /* Function token (interned). */
} schema_method;

/* A resource (or the provider resource) of a package. */
struct schema_resource {
  const char *token; /* The schema's token (`pulumi:providers:<pkg>` for providers). */
  schema_package *pkg; /* The package that defines it. */
  bool is_provider;  /* The package's provider resource. */
  bool is_component; /* `isComponent`: a remote component. */
  const char *description; /* May be NULL. */
  const char *deprecation; /* `deprecationMessage`, or NULL. */
  schema_property *inputs; /* `inputProperties`, in schema order. */
  size_t ninputs;          /* Number of inputs. */
  schema_property *outputs; /* `properties`, in schema order. */
  size_t noutputs;          /* Number of outputs. */
  schema_property *state; /* `stateInputs` properties (for `read`). */
  size_t nstate;          /* Number of state properties. */
  schema_method *methods; /* `methods`, in schema order. */
  size_t nmethods;        /* Number of methods. */
  const schema_method **methods_by_name; /* The methods sorted by name (internal). */
  /* Mapped ty types (internal caches): inputs, outputs, read state. */
  const ty *ty_input, *ty_output, *ty_read;
};

/* A function (invoke target or method implementation) of a package. */
struct schema_function {
  const char *token; /* The schema's token. */
  schema_package *pkg;     /* The package that defines it. */
  const char *description; /* May be NULL. */
  const char *deprecation; /* `deprecationMessage`, or NULL. */
  bool has_inputs;         /* An `inputs` object was given. */
  schema_property *inputs; /* `inputs.properties` (with `__self__` for methods). */
  size_t ninputs;          /* Number of inputs. */
  const char *const *multi_args; /* `multiArgumentInputs`, in order, or NULL. */
  size_t nmulti_args;            /* Number of multi_args entries. */
  bool has_return;          /* `outputs` was given. */
  bool returns_object;      /* `outputs` is an object type with properties. */
  schema_property *outputs; /* Object return: its properties. */
  size_t noutputs;          /* Number of outputs. */
  const schema_type *return_type; /* Non-object return: its type. */
  bool return_plain;              /* `outputs.plain`: a plain (non-output) result. */
  bool is_method;                 /* Has a `__self__` input. */
  /* Mapped ty types (internal caches): plain and input arguments, result. */
  const ty *ty_args_plain, *ty_args_input, *ty_return;
};

/* A loaded package. */
struct schema_package {
  const char *name;             /* Package name (interned). */
  const char *version;          /* `version` of the schema (or the file name), or NULL. */
  /* The schema's `pluginDownloadURL` (where the engine fetches the provider
   * plugin; it names default providers), or NULL when absent or empty. */
  const char *plugin_download_url;
  const char *path;             /* The file it came from ("<builtin pulumi schema>"). */
  bool extension;               /* The schema has `extensionParameterization`: the package
                                   extends its base provider (the engine is told so when
                                   the program registers it). */
  bool ok;                      /* Loaded without a file-level error. */
  struct schema_pkg_impl *impl; /* Decoding state (internal). */
};

/* The outcome of a token lookup. */
typedef enum schema_status {
  SCHEMA_FOUND,      /* Found; the result is set. */
  SCHEMA_NO_PACKAGE, /* No schema for the package: the caller binds untyped
                        and warns `unknown package '<pkg>'` (nothing reported). */
  SCHEMA_ERROR       /* An error was reported (malformed token, unknown type,
                        broken schema); the caller treats the value as dynamic. */
} schema_status;

/* ----------------------------------------------------------------- set */

/* Returns a new empty set that maps types with tc, allocates from a,
 * interns names in names and reports into d (all borrowed; they must outlive
 * the set).  Schema files are added to d's src_set so that diagnostics can
 * point into them.  Free it with schema_set_free. */
schema_set *schema_set_new(ty_ctx *tc, arena *a, intern_table *names, diag_list *d);
/* Frees the set and what it owns (parsed JSON, regexes); arena memory stays. */
void schema_set_free(schema_set *s);
/* Adds a folder to the search path (later folders are searched after earlier
 * ones); lists its `*.json` files.  Returns false and reports an error when
 * the folder cannot be read.  dir is copied. */
bool schema_add_path(schema_set *s, const char *dir);
/* Pins the version of package name used when a lookup requests none (from a
 * `package` block); both strings are copied. */
void schema_pin_version(schema_set *s, const char *name, const char *version);
/* Returns the paths of every schema file read so far, in reading order
 * (borrowed); *n receives the count.  For `-MD` dependency files. */
const char *const *schema_files_read(const schema_set *s, size_t *n);

/* ------------------------------------------------------------ packages */

/* Returns the package name, loading it on first use.  The version is the
 * requested one, else the pinned one; the file is the one named with that
 * version, else `<name>.json`, else the highest version (with a warning).
 * Without a version the highest version wins, and `<name>.json` is used
 * only when no file names a version.  Returns NULL when no schema file
 * exists for the package (nothing reported); a file that exists but is
 * broken is reported once and returned with ok == false. */
schema_package *schema_find_package(schema_set *s, const char *name, const char *version);
/* Like schema_find_package, with the warning about a missing version at
 * where (the package block that asks for it). */
schema_package *schema_find_package_at(schema_set *s, const char *name, const char *version,
                                       pcl_span where);
/* Loads the schema file at path directly (tests, explicit schema files),
 * registering it under its declared name.  Returns NULL after reporting an
 * error if the file cannot be read or has no name. */
schema_package *schema_load_file(schema_set *s, const char *path);
/* Decodes every resource, function and type of pkg and maps them to ty
 * types, reporting every problem.  Returns true when no error was reported. */
bool schema_package_check(schema_set *s, schema_package *pkg);

/* -------------------------------------------------------------- tokens */

/* Splits a type token (`pkg:mod:Member`, `pkg:Member`, `pkg::Member`) into
 * interned parts (an empty or missing module gives "index").  Returns false
 * if the token is malformed (nothing reported); out pointers may be NULL. */
bool schema_split_token(schema_set *s, const char *token, const char **pkg, const char **module,
                        const char **member);
/* Returns the package a resource token belongs to (`X` for
 * `pulumi:providers:X`), interned, or NULL if the token is malformed. */
const char *schema_token_package(schema_set *s, const char *token);

/* Finds the resource named by token (written form, canonical form under the
 * package's module format, or a schema alias; `pulumi:providers:<pkg>` is
 * the provider of <pkg>) in the requested version of its package (NULL:
 * pinned or highest).  Reports "malformed token ..." or "unknown resource
 * type '...'" at where and returns SCHEMA_ERROR; returns SCHEMA_NO_PACKAGE,
 * reporting nothing, when the package has no schema. */
schema_status schema_find_resource(schema_set *s, const char *token, const char *version,
                                   pcl_span where, schema_resource **out);
/* Finds the function (invoke target) named by token as schema_find_resource
 * does, reporting "malformed token ..." or "unknown function '...'". */
schema_status schema_find_function(schema_set *s, const char *token, const char *version,
                                   pcl_span where, schema_function **out);
/* Returns the function implementing method name of res, or NULL if res has
 * no such method (nothing reported; a method naming a function the schema
 * does not define was reported when res was decoded, and is left out). */
schema_function *schema_resource_method(schema_set *s, schema_resource *res, const char *name);
/* Returns the resource whose output object type (schema_resource_output_type)
 * is t, or NULL. */
schema_resource *schema_resource_of_type(const schema_set *s, const ty *t);

/* ------------------------------------------------------------- types */

/* Returns the ty type of a property: input-shaped when input is true and the
 * property is not plain; optional(...) when not required; the const type
 * for a const property. */
const ty *schema_property_type(schema_set *s, schema_property *p, bool input);
/* Returns the ty type of a raw schema type (input-shaped or plain). */
const ty *schema_type_to_ty(schema_set *s, const schema_type *t, bool input);
/* Returns the object type of the resource's inputs (input-shaped). */
const ty *schema_resource_input_type(schema_set *s, schema_resource *r);
/* Returns the type of a reference to the resource: an object of every output
 * property as output(T), plus `id: output(id)` and `urn: output(string)`. */
const ty *schema_resource_output_type(schema_set *s, schema_resource *r);
/* Returns the input type of a `read` of the resource: `id: string` plus its
 * `stateInputs` (input-shaped, optional). */
const ty *schema_resource_read_type(schema_set *s, schema_resource *r);
/* Returns the argument object type of fn: plain property types (plain form,
 * output == false) or input-shaped ones (output form); `__self__` is left
 * out; optional(object({})) when the function has no other inputs. */
const ty *schema_function_args_type(schema_set *s, schema_function *fn, bool output);
/* Returns the (plain) return type of fn: the `outputs` object, the scalar
 * return type, or object({}) when it declares none. */
const ty *schema_function_return_type(schema_set *s, schema_function *fn);
/* Returns the alternative of the discriminated union u (a `oneOf` with a
 * `discriminator`) that the discriminator value selects: through the
 * `mapping`, else the object alternative whose discriminator property is the
 * constant value.  NULL if u is not such a union or no alternative matches
 * (resolveInputUnions narrows a property to it, program.md §3.2). */
const schema_type *schema_union_select(schema_set *s, const schema_type *u, const char *value);
/* Returns the property named name among n properties, or NULL. */
schema_property *schema_property_find(schema_property *props, size_t n, const char *name);

#endif
