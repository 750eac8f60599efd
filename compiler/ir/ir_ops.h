/* ir_ops: the operations of the typed IR, defined once.
 *
 * IR_OPS(X): X(NAME, "dump name").  The list generates the ir_op enum, the
 * name table behind ir_op_name() and the --dump-ir printer's labels; see
 * ir.h for the fields each operation uses. */
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
  X(COND, "cond")                                                                        \
  X(CALL, "call")                                                                        \
  X(CONVERT, "convert")                                                                  \
  X(FOR, "for")                                                                          \
  X(SPLAT, "splat")                                                                      \
  X(APPLY, "apply")                                                                      \
  X(SECRET, "secret")                                                                    \
  X(UNSECRET, "unsecret")                                                                \
  X(GET_OUTPUT, "get-output")                                                            \
  X(INVOKE, "invoke")                                                                    \
  X(METHOD, "method")                                                                    \
  X(TRY, "try")                                                                          \
  X(CAN, "can")                                                                          \
  X(RECOVER, "recover")                                                                  \
  X(FAIL, "fail")

#endif
