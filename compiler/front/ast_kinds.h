/* ast_kinds: the list of AST node kinds, defined once.  X(NAME, "dump name")
 * generates the ast_kind enum (AST_NAME), the name table and the dumper's
 * switch.  See ast.h for the fields each kind uses. */
#define AST_KINDS(X)                                                                     \
  /* Structure. */                                                                       \
  X(ATTRIBUTE, "attribute")                                                              \
  X(BLOCK, "block")                                                                      \
  /* Literals and names. */                                                              \
  X(NUMBER, "number")                                                                    \
  X(BOOL, "bool")                                                                        \
  X(NULL, "null")                                                                        \
  X(VARIABLE, "variable")                                                                \
  /* Templates. */                                                                       \
  X(TEMPLATE, "template")                                                                \
  X(TEMPLATE_LITERAL, "literal")                                                         \
  X(TEMPLATE_IF, "template-if")                                                          \
  X(TEMPLATE_FOR, "template-for")                                                        \
  /* Traversals. */                                                                      \
  X(GET_ATTR, "get-attr")                                                                \
  X(INDEX, "index")                                                                      \
  X(SPLAT, "splat")                                                                      \
  X(SPLAT_ITEM, "splat-item")                                                            \
  /* Compound expressions. */                                                            \
  X(CALL, "call")                                                                        \
  X(TUPLE, "tuple")                                                                      \
  X(OBJECT, "object")                                                                    \
  X(OBJECT_ITEM, "item")                                                                 \
  X(FOR, "for")                                                                          \
  X(UNARY, "unary")                                                                      \
  X(BINARY, "binary")                                                                    \
  X(CONDITIONAL, "conditional")                                                          \
  X(PAREN, "paren")

/* Operators: X(NAME, "spelling"). */
#define AST_UNARY_OPS(X) X(NEG, "-") X(NOT, "!")
#define AST_BINARY_OPS(X)                                                                \
  X(OR, "||") X(AND, "&&") X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">")     \
  X(GE, ">=") X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%")
