/* ty_kinds: the list of type kinds of the PCL type system, defined once.
 * X(NAME, "name") generates the ty_kind enum (TY_NAME) and the table of the
 * names types are written with (`list(string)`).  The order here is the order of the enum and nothing else
 * depends on it.  See ty.h for the fields each kind uses. */
#define TY_KINDS(X)                                                                      \
  /* Primitive (opaque in the reference) types. */                                       \
  X(BOOL, "bool")                                                                        \
  X(INT, "int")                                                                          \
  X(NUMBER, "number")                                                                    \
  X(STRING, "string")                                                                    \
  X(ID, "id")                                                                            \
  /* The unknown type (`any` in type expressions) and the type of null. */               \
  X(DYNAMIC, "dynamic")                                                                  \
  X(NONE, "none")                                                                        \
  /* Any other named type: Asset, Archive, Property, schema token types. */              \
  X(OPAQUE, "opaque")                                                                    \
  /* Collections and structural types. */                                                \
  X(LIST, "list")                                                                        \
  X(MAP, "map")                                                                          \
  X(SET, "set")                                                                          \
  X(TUPLE, "tuple")                                                                      \
  X(OBJECT, "object")                                                                    \
  X(UNION, "union")                                                                      \
  /* Eventual values. */                                                                 \
  X(OUTPUT, "output")                                                                    \
  X(PROMISE, "promise")                                                                  \
  /* Literal (singleton) types and schema enums. */                                      \
  X(CONST, "const")                                                                      \
  X(ENUM, "enum")
