/* ty_vectors: the test vectors of ../shared/spec/types.md §18 as X-macro
 * tables, so that the type-system tests (test_ty.c) and the checker's tests
 * can share them.  Types are written in the notation of §18 (optional(T),
 * const(int 42), enum(string: 'red'|'blue'), object({a=string})), which
 * test_ty.c parses.  Rows that DECISIONS.md changes carry a comment naming
 * the decision; no row of 18.1 or 18.2 needs one (D3 keeps the conversions
 * int → number/string safe and number/string → int unsafe, and D4 is what
 * the reference implements). */

/* §18.1 conversions: X(from S, to T, ConversionFrom kind, AssignableFrom). */
#define TY_CONVERSION_VECTORS(X) \
  X("int", "number", TY_CONV_SAFE, false) \
  X("number", "int", TY_CONV_UNSAFE, false) \
  X("int", "string", TY_CONV_SAFE, false) \
  X("string", "int", TY_CONV_UNSAFE, false) \
  X("number", "string", TY_CONV_SAFE, false) \
  X("string", "number", TY_CONV_UNSAFE, false) \
  X("bool", "string", TY_CONV_SAFE, false) \
  X("string", "bool", TY_CONV_UNSAFE, false) \
  X("bool", "number", TY_CONV_UNSAFE, false) \
  X("number", "bool", TY_CONV_UNSAFE, false) \
  X("bool", "int", TY_CONV_UNSAFE, false) \
  X("int", "bool", TY_CONV_UNSAFE, false) \
  X("id", "string", TY_CONV_SAFE, false) \
  X("string", "id", TY_CONV_SAFE, false) \
  X("int", "id", TY_CONV_SAFE, false) \
  X("id", "number", TY_CONV_UNSAFE, false) \
  X("dynamic", "string", TY_CONV_UNSAFE, false) \
  X("string", "dynamic", TY_CONV_SAFE, true) \
  X("dynamic", "bool", TY_CONV_UNSAFE, false) \
  X("dynamic", "list(string)", TY_CONV_UNSAFE, false) \
  X("object({a=string})", "dynamic", TY_CONV_SAFE, true) \
  X("none", "string", TY_CONV_NONE, false) \
  X("string", "none", TY_CONV_NONE, false) \
  X("none", "none", TY_CONV_SAFE, true) \
  X("none", "optional(string)", TY_CONV_SAFE, true) \
  X("string", "optional(string)", TY_CONV_SAFE, true) \
  X("optional(string)", "string", TY_CONV_UNSAFE, false) \
  X("optional(string)", "none", TY_CONV_UNSAFE, false) \
  X("optional(int)", "optional(number)", TY_CONV_SAFE, false) \
  X("optional(number)", "optional(int)", TY_CONV_UNSAFE, false) \
  X("const(int 42)", "number", TY_CONV_SAFE, false) \
  X("const(int 42)", "int", TY_CONV_SAFE, true) \
  X("const(number 3.5)", "string", TY_CONV_SAFE, false) \
  X("const(string \"true\")", "bool", TY_CONV_UNSAFE, false) \
  X("const(int 1)", "const(int 1)", TY_CONV_SAFE, true) \
  X("const(int 2)", "const(int 1)", TY_CONV_UNSAFE, false) \
  X("string", "const(string \"a\")", TY_CONV_UNSAFE, false) \
  X("int", "const(string \"a\")", TY_CONV_UNSAFE, false) \
  X("const(string \"red\")", "enum(string: 'red'|'blue')", TY_CONV_UNSAFE, false) \
  X("const(string \"green\")", "enum(string: 'red'|'blue')", TY_CONV_UNSAFE, false) \
  X("string", "enum(string: 'red'|'blue')", TY_CONV_UNSAFE, false) \
  X("int", "enum(string: 'red'|'blue')", TY_CONV_UNSAFE, false) \
  X("const(int 1)", "enum(number: 1|2.5)", TY_CONV_SAFE, false) \
  X("enum(string: 'red'|'blue')", "string", TY_CONV_NONE, false) \
  X("bool", "union(int, string)", TY_CONV_SAFE, false) \
  X("number", "union(int, string)", TY_CONV_SAFE, false) \
  X("string", "union(bool, int)", TY_CONV_UNSAFE, false) \
  X("tuple(string)", "union(list(string), map(string))", TY_CONV_SAFE, true) \
  X("union(int, string)", "string", TY_CONV_SAFE, false) \
  X("union(int, string)", "int", TY_CONV_UNSAFE, false) \
  X("union(list(string), number)", "list(string)", TY_CONV_UNSAFE, false) \
  X("list(int)", "list(string)", TY_CONV_SAFE, false) \
  X("list(string)", "list(int)", TY_CONV_UNSAFE, false) \
  X("set(string)", "list(string)", TY_CONV_SAFE, false) \
  X("list(string)", "set(string)", TY_CONV_UNSAFE, false) \
  X("tuple(string, string)", "list(string)", TY_CONV_SAFE, true) \
  X("tuple(string, int)", "list(string)", TY_CONV_SAFE, false) \
  X("tuple(string)", "list(int)", TY_CONV_UNSAFE, false) \
  X("tuple()", "list(string)", TY_CONV_SAFE, true) \
  X("tuple(string, list(string))", "list(string)", TY_CONV_NONE, false) \
  X("tuple(string, string)", "set(string)", TY_CONV_UNSAFE, false) \
  X("list(string)", "tuple(string, string)", TY_CONV_UNSAFE, false) \
  X("tuple(string, string)", "tuple(string)", TY_CONV_NONE, true) \
  X("tuple(int, bool)", "tuple(number, string)", TY_CONV_SAFE, false) \
  X("map(string)", "list(string)", TY_CONV_NONE, false) \
  X("list(string)", "map(string)", TY_CONV_NONE, false) \
  X("object({a=string, b=int})", "map(string)", TY_CONV_SAFE, false) \
  X("object({a=string})", "map(int)", TY_CONV_UNSAFE, false) \
  X("object({})", "map(string)", TY_CONV_SAFE, true) \
  X("map(int)", "map(number)", TY_CONV_SAFE, false) \
  X("map(string)", "object({a=string})", TY_CONV_UNSAFE, false) \
  X("map(string)", "object({})", TY_CONV_UNSAFE, false) \
  X("map(string)", "object({a=int})", TY_CONV_UNSAFE, false) \
  X("map(string)", "object({a=list(string)})", TY_CONV_NONE, false) \
  X("object({a=string, b=int})", "object({a=string})", TY_CONV_SAFE, true) \
  X("object({a=string})", "object({a=string, b=int})", TY_CONV_NONE, false) \
  X("object({a=string})", "object({a=string, b=optional(int)})", TY_CONV_SAFE, true) \
  X("object({a=int})", "object({a=number})", TY_CONV_SAFE, false) \
  X("object({a=number})", "object({a=int})", TY_CONV_UNSAFE, false) \
  X("string", "output(string)", TY_CONV_SAFE, true) \
  X("int", "output(string)", TY_CONV_SAFE, false) \
  X("output(string)", "output(string)", TY_CONV_SAFE, true) \
  X("output(int)", "output(number)", TY_CONV_SAFE, false) \
  X("promise(string)", "output(string)", TY_CONV_SAFE, true) \
  X("output(string)", "string", TY_CONV_NONE, false) \
  X("string", "promise(string)", TY_CONV_SAFE, true) \
  X("output(string)", "promise(string)", TY_CONV_NONE, false) \
  X("promise(int)", "promise(number)", TY_CONV_SAFE, false) \
  X("output(list(string))", "list(string)", TY_CONV_NONE, false) \
  X("list(output(string))", "output(list(string))", TY_CONV_NONE, false) \
  X("tuple(output(string), string)", "output(list(string))", TY_CONV_NONE, false) \
  X("list(output(string))", "list(string)", TY_CONV_NONE, false) \
  X("string", "union(output(string), string)", TY_CONV_SAFE, true) \
  X("output(string)", "union(output(string), string)", TY_CONV_SAFE, true) \
  X("int", "union(output(string), string)", TY_CONV_SAFE, false) \
  X("output(int)", "union(output(string), string)", TY_CONV_SAFE, false) \
  X("promise(int)", "union(number, output(number))", TY_CONV_SAFE, false) \
  X("tuple(string, output(string))", "union(list(union(output(string), string)), output(list(string)))", TY_CONV_SAFE, true) \
  X("list(bool)", "union(bool, output(bool))", TY_CONV_NONE, false) \
  X("output(string)", "dynamic", TY_CONV_SAFE, true) \
  X("string", "output(dynamic)", TY_CONV_SAFE, true) \
  X("none", "optional(dynamic)", TY_CONV_SAFE, true) \
  X("Asset", "Asset", TY_CONV_SAFE, true) \
  X("Asset", "union(Archive, Asset)", TY_CONV_SAFE, true) \
  X("string", "Asset", TY_CONV_NONE, false) \
  X("Asset", "string", TY_CONV_NONE, false)

/* §18.2 unification: X(A, B, unify(A, B), its kind, UnifyTypes safe,
 * UnifyTypes unsafe). */
#define TY_UNIFY_VECTORS(X) \
  X("int", "number", "number", TY_CONV_SAFE, "number", "number") \
  X("number", "int", "number", TY_CONV_SAFE, "number", "number") \
  X("int", "string", "string", TY_CONV_SAFE, "string", "string") \
  X("number", "string", "string", TY_CONV_SAFE, "string", "string") \
  X("bool", "string", "string", TY_CONV_SAFE, "string", "string") \
  X("bool", "number", "number", TY_CONV_UNSAFE, "union(bool, number)", "number") \
  X("bool", "int", "int", TY_CONV_UNSAFE, "union(bool, int)", "int") \
  X("id", "string", "string", TY_CONV_SAFE, "string", "string") \
  X("id", "int", "id", TY_CONV_SAFE, "id", "id") \
  X("string", "string", "string", TY_CONV_SAFE, "string", "string") \
  X("string", "dynamic", "string", TY_CONV_UNSAFE, "union(dynamic, string)", "string") \
  X("dynamic", "dynamic", "dynamic", TY_CONV_SAFE, "dynamic", "dynamic") \
  X("string", "none", "optional(string)", TY_CONV_SAFE, "optional(string)", "optional(string)") \
  X("none", "none", "none", TY_CONV_SAFE, "none", "none") \
  X("none", "optional(string)", "optional(string)", TY_CONV_SAFE, "optional(string)", "optional(string)") \
  X("optional(int)", "number", "optional(number)", TY_CONV_SAFE, "optional(number)", "optional(number)") \
  X("const(int 1)", "const(int 2)", "const(int 1)", TY_CONV_UNSAFE, "union(const(int 1), const(int 2))", "const(int 1)") \
  X("const(int 1)", "int", "int", TY_CONV_SAFE, "int", "int") \
  X("const(int 1)", "number", "number", TY_CONV_SAFE, "number", "number") \
  X("const(string \"a\")", "const(string \"b\")", "const(string \"a\")", TY_CONV_UNSAFE, "union(const(string \"a\"), const(string \"b\"))", "const(string \"a\")") \
  X("const(int 1)", "const(string \"x\")", "const(int 1)", TY_CONV_UNSAFE, "union(const(int 1), const(string \"x\"))", "const(int 1)") \
  X("union(int, string)", "bool", "union(int, string)", TY_CONV_SAFE, "union(int, string)", "union(int, string)") \
  X("union(int, string)", "optional(bool)", "union(bool, int, none, string)", TY_CONV_SAFE, "union(bool, int, none, string)", "union(bool, int, none, string)") \
  X("union(bool, map(string))", "string", "union(map(string), string)", TY_CONV_SAFE, "union(map(string), string)", "union(map(string), string)") \
  X("list(int)", "list(number)", "list(number)", TY_CONV_SAFE, "list(number)", "list(number)") \
  X("list(string)", "set(string)", "list(string)", TY_CONV_SAFE, "list(string)", "list(string)") \
  X("set(int)", "set(number)", "set(number)", TY_CONV_SAFE, "set(number)", "set(number)") \
  X("list(string)", "tuple(string, string)", "list(string)", TY_CONV_SAFE, "list(string)", "list(string)") \
  X("tuple(string, int)", "list(string)", "list(string)", TY_CONV_SAFE, "list(string)", "list(string)") \
  X("tuple(int)", "tuple(number, bool)", "tuple(number, optional(bool))", TY_CONV_SAFE, "tuple(number, optional(bool))", "tuple(number, optional(bool))") \
  X("tuple(string)", "tuple(int)", "tuple(string)", TY_CONV_SAFE, "tuple(string)", "tuple(string)") \
  X("tuple(bool)", "tuple(number)", "tuple(number)", TY_CONV_UNSAFE, "union(tuple(bool), tuple(number))", "tuple(number)") \
  X("set(string)", "tuple(string)", "set(string)", TY_CONV_UNSAFE, "union(set(string), tuple(string))", "set(string)") \
  X("map(string)", "map(int)", "map(string)", TY_CONV_SAFE, "map(string)", "map(string)") \
  X("map(string)", "object({a=int})", "map(string)", TY_CONV_SAFE, "map(string)", "map(string)") \
  X("object({a=string})", "object({b=int})", "object({a=optional(string), b=optional(int)})", TY_CONV_SAFE, "object({a=optional(string), b=optional(int)})", "object({a=optional(string), b=optional(int)})") \
  X("object({a=int})", "object({a=number, b=bool})", "object({a=number, b=optional(bool)})", TY_CONV_SAFE, "object({a=number, b=optional(bool)})", "object({a=number, b=optional(bool)})") \
  X("object({a=string})", "map(bool)", "map(string)", TY_CONV_SAFE, "map(string)", "map(string)") \
  X("list(string)", "map(string)", "union(list(string), map(string))", TY_CONV_SAFE, "union(list(string), map(string))", "union(list(string), map(string))") \
  X("string", "list(string)", "union(list(string), string)", TY_CONV_SAFE, "union(list(string), string)", "union(list(string), string)") \
  X("Asset", "Archive", "union(Archive, Asset)", TY_CONV_SAFE, "union(Archive, Asset)", "union(Archive, Asset)") \
  X("output(string)", "string", "output(string)", TY_CONV_SAFE, "output(string)", "output(string)") \
  X("output(int)", "output(number)", "output(number)", TY_CONV_SAFE, "output(number)", "output(number)") \
  X("promise(string)", "output(string)", "output(string)", TY_CONV_SAFE, "output(string)", "output(string)") \
  X("promise(int)", "promise(number)", "promise(number)", TY_CONV_SAFE, "promise(number)", "promise(number)") \
  X("output(string)", "output(bool)", "output(string)", TY_CONV_SAFE, "output(string)", "output(string)") \
  X("output(string)", "none", "optional(output(string))", TY_CONV_SAFE, "optional(output(string))", "optional(output(string))") \
  X("promise(string)", "string", "promise(string)", TY_CONV_SAFE, "promise(string)", "promise(string)") \
  X("output(list(string))", "list(string)", "output(list(string))", TY_CONV_SAFE, "output(list(string))", "output(list(string))")

/* §18.3 expression typing.  The environment the expressions are typed in:
 * X(name, type); r is a resource, rs a list of them. */
#define TY_EXPR_ENV(X)                                                                    \
  X("s", "string")                                                                        \
  X("n", "number")                                                                        \
  X("i", "int")                                                                           \
  X("j", "int")                                                                           \
  X("b", "bool")                                                                          \
  X("ls", "list(string)")                                                                 \
  X("ms", "map(string)")                                                                  \
  X("o", "object({a=string})")                                                            \
  X("os", "output(string)")                                                               \
  X("ob", "output(bool)")                                                                 \
  X("ps", "promise(string)")                                                              \
  X("lo", "output(list(string))")                                                         \
  X("d", "dynamic")                                                                       \
  X("r", "object({id=output(id), urn=output(string), name=output(string)})")              \
  X("rs", "list(object({id=output(id), urn=output(string), name=output(string)}))")       \
  X("opt", "optional(object({a=string}))")

/* X(row, expression, type, diagnostic or NULL).  Rows 5, 19, 21, 22 and 49
 * follow DECISIONS.md D3 (integral literals of any size are const(int);
 * int op int is int for + - * %; / is number; max(1, 2.5) is number).
 * test_ty.c checks each row through the type-level rule it exercises
 * (literals: ty_number_literal/ty_const_*; templates, keys and conditions:
 * ty_lift/ty_unify_safe; operators: ty_binary_op/ty_unary_op; traversals:
 * ty_traverse/ty_splat_item; for expressions: ty_collection_types and
 * ty_wrap_iterable; calls: ty_lift_call, with builtin return types taken
 * from functions.md).  Rows 9 (`"${e}"` is the type of e) and 52 (can())
 * are not type-level rules and are left to the checker's tests. */
#define TY_EXPR_VECTORS(X)                                                                \
  X(1, "42", "const(int 42)", NULL)                                                       \
  X(2, "-7", "const(int -7)", NULL)                                                       \
  X(3, "1.0", "const(int 1)", NULL)                                                       \
  X(4, "3.14", "const(number 3.14)", NULL)                                                \
  X(5, "3000000000", "const(int 3000000000)", NULL) /* D3 */                              \
  X(6, "true", "const(bool true)", NULL)                                                  \
  X(7, "null", "const(none null)", NULL)                                                  \
  X(8, "\"foo\"", "string", NULL)                                                         \
  X(9, "\"${i}\"", "int", NULL)                                                           \
  X(10, "\"v=${i}\"", "string", NULL)                                                     \
  X(11, "\"v=${os}\"", "output(string)", NULL)                                            \
  X(12, "\"x${ls}\"", "string", NULL)                                                     \
  X(13, "[1, \"a\"]", "tuple(const(int 1), string)", NULL)                                \
  X(14, "[os, s]", "tuple(output(string), string)", NULL)                                 \
  X(15, "{a = 1, \"b\" = s}", "object({a=const(int 1), b=string})", NULL)                 \
  X(16, "{a = os}", "object({a=output(string)})", NULL)                                   \
  X(17, "{(s) = \"x\"}", "map(string)", NULL)                                             \
  X(18, "{(os) = \"x\"}", "output(map(string))", NULL)                                    \
  X(19, "1 + 2", "int", NULL) /* D3 */                                                    \
  X(20, "i + j", "int", NULL)                                                             \
  X(21, "i + 1", "int", NULL) /* D3 */                                                    \
  X(22, "i / j", "number", NULL) /* D3 */                                                 \
  X(23, "-i", "int", NULL)                                                                \
  X(24, "s + 1", "number", NULL)                                                          \
  X(25, "i < j", "bool", NULL)                                                            \
  X(26, "os == \"x\"", "output(bool)", NULL)                                              \
  X(27, "ps == \"x\"", "promise(bool)", NULL)                                             \
  X(28, "b && ob", "output(bool)", NULL)                                                  \
  X(29, "b ? 1 : 2", "union(const(int 1), const(int 2))", NULL)                           \
  X(30, "b ? 1 : \"x\"", "string", NULL)                                                  \
  X(31, "b ? s : null", "union(const(none null), string)", NULL)                          \
  X(32, "ob ? s : \"x\"", "output(string)", NULL)                                         \
  X(33, "ls[0]", "string", NULL)                                                          \
  X(34, "ls[i]", "string", NULL)                                                          \
  X(35, "ms.k", "string", NULL)                                                           \
  X(36, "o.b", "dynamic", "unknown property 'b' among [a]")                               \
  X(37, "opt.a", "optional(string)", NULL)                                                \
  X(38, "d.x.y", "dynamic", NULL)                                                         \
  X(39, "r.id", "output(id)", NULL)                                                       \
  X(40, "rs[*].name", "list(output(string))", NULL)                                       \
  X(41, "lo[0]", "output(string)", NULL)                                                  \
  X(42, "[for x in ls : \"${x}!\"]", "list(string)", NULL)                                \
  X(43, "[for x in lo : x]", "output(list(string))", NULL)                                \
  X(44, "{for k, v in ms : k => length(v)}", "map(int)", NULL)                            \
  X(45, "{for x in ls : x => 1...}", "map(list(const(int 1)))", NULL)                     \
  X(46, "[for x in ls : x if ob]", "output(list(string))", NULL)                          \
  X(47, "length(lo)", "output(int)", NULL)                                                \
  X(48, "split(\",\", os)", "output(list(string))", NULL)                                 \
  X(49, "max(1, 2.5)", "number", NULL) /* D3 */                                           \
  X(50, "singleOrNone([1])", "optional(const(int 1))", NULL)                              \
  X(51, "try(os, \"x\")", "output(string)", NULL)                                         \
  X(52, "can(o.a)", "bool", NULL)
