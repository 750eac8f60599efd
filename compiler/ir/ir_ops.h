/* ir_ops: the operations of the typed IR and their operators, defined once.
 *
 * IR_OPS(X): X(NAME, "dump name").  The list generates the ir_op enum, the
 * name table behind ir_op_name() and the --dump-ir printer's labels; see
 * ir.h for the fields each operation uses.
 *
 * IR_UNARY_OPS(X) and IR_BINARY_OPS(X): X(NAME, "symbol"), the operators of
 * UNARY and BINARY (ir_expr.sub), which generate the ir_unary_op and
 * ir_binary_op enums and the symbols --dump-ir prints.  `&&` and `||` are
 * not among them: they take their operands as they stand, so that the side
 * that decides wins over a failure or an unknown of the other, and are the
 * operations AND and OR.  Their dump labels are those of the binary
 * operators they come from. */
#ifndef PCLC_IR_OPS_H
#define PCLC_IR_OPS_H

#define IR_OPS(X)                                                                        \
  X(CONST, "const")                                                                      \
  X(NODE, "node")                                                                        \
  X(VAR, "var")                                                                          \
  X(PARAM, "param")                                                                      \
  X(PATH, "path")                                                                        \
  X(ATTR, "attr")                                                                        \
  X(INDEX, "index")                                                                      \
  X(LIST, "list")                                                                        \
  X(OBJECT, "object")                                                                    \
  X(TEMPLATE, "template")                                                                \
  X(UNARY, "unary")                                                                      \
  X(BINARY, "binary")                                                                    \
  X(AND, "binary &&")                                                                    \
  X(OR, "binary ||")                                                                     \
  X(COND, "cond")                                                                        \
  X(CALL, "call")                                                                        \
  X(CONVERT, "convert")                                                                  \
  X(FOR, "for")                                                                          \
  X(SPLAT, "splat")                                                                      \
  X(APPLY, "apply")                                                                      \
  X(SECRET, "secret")                                                                    \
  X(UNSECRET, "unsecret")                                                                \
  X(GET_OUTPUT, "get-output")                                                            \
  X(RESOURCE_EXISTS, "resource-exists")                                                  \
  X(INVOKE, "invoke")                                                                    \
  X(METHOD, "method")                                                                    \
  X(TRY, "try")                                                                          \
  X(CAN, "can")                                                                          \
  X(RECOVER, "recover")                                                                  \
  X(FAIL, "fail")

#define IR_UNARY_OPS(X) X(NEG, "-") X(NOT, "!")

#define IR_BINARY_OPS(X)                                                                 \
  X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=") X(ADD, "+")       \
  X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%")

#endif
