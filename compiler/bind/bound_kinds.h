/* bound_kinds: the kinds of the bound program, defined once.
 *
 * BND_NODE_KINDS(X): top-level nodes, X(NAME, "dump name").
 * BND_EXPR_KINDS(X): typed expression nodes, X(NAME, "dump name").
 * BND_OPTIONS(X): resource options, X(NAME, "spelling", path) where path is
 * 1 for the property-path options of program.md §3.4.1.
 * The enums, the name tables and the --dump-types printer are generated from
 * these lists; see bound.h for the fields each kind uses. */
#define BND_NODE_KINDS(X)                                                                \
  X(LOCAL, "local")                                                                      \
  X(CONFIG, "config")                                                                    \
  X(RESOURCE, "resource")                                                                \
  X(READ, "read")                                                                        \
  X(COMPONENT, "component")                                                              \
  X(OUTPUT, "output")                                                                    \
  X(PULUMI, "pulumi")                                                                    \
  X(HOOK, "hook")

#define BND_EXPR_KINDS(X)                                                                \
  /* Literals. */                                                                        \
  X(NUMBER, "number")                                                                    \
  X(BOOL, "bool")                                                                        \
  X(NULL, "null")                                                                        \
  X(STRING, "string")                                                                    \
  /* Templates: parts, %{if}, %{for}. */                                                 \
  X(TEMPLATE, "template")                                                                \
  X(TEMPLATE_IF, "template-if")                                                          \
  X(TEMPLATE_FOR, "template-for")                                                        \
  /* References: to a top-level node, to a scoped variable. */                           \
  X(NODE_REF, "node-ref")                                                                \
  X(VAR_REF, "var-ref")                                                                  \
  /* Traversals. */                                                                      \
  X(GET_ATTR, "get-attr")                                                                \
  X(INDEX, "index")                                                                      \
  X(SPLAT, "splat")                                                                      \
  /* Compound expressions. */                                                            \
  X(CALL, "call")                                                                        \
  X(TUPLE, "tuple")                                                                      \
  X(OBJECT, "object")                                                                    \
  X(FOR, "for")                                                                          \
  X(UNARY, "unary")                                                                      \
  X(BINARY, "binary")                                                                    \
  X(CONDITIONAL, "conditional")                                                          \
  /* A property path in ignoreChanges & co (program.md §3.4.1). */                       \
  X(PROPERTY, "property")                                                                \
  /* A type expression (second argument of convert(), type labels). */                  \
  X(TYPE, "type")                                                                        \
  /* An expression the checker proved fails, inside try or can. */                       \
  X(FAIL, "fail")

#define BND_OPTIONS(X)                                                                   \
  X(RANGE, "range", 0)                                                                   \
  X(PARENT, "parent", 0)                                                                 \
  X(PROVIDER, "provider", 0)                                                             \
  X(PROVIDERS, "providers", 0)                                                           \
  X(DEPENDS_ON, "dependsOn", 0)                                                          \
  X(PROTECT, "protect", 0)                                                               \
  X(RETAIN_ON_DELETE, "retainOnDelete", 0)                                               \
  X(DELETE_BEFORE_REPLACE, "deleteBeforeReplace", 0)                                     \
  X(IGNORE_CHANGES, "ignoreChanges", 1)                                                  \
  X(HIDE_DIFFS, "hideDiffs", 1)                                                          \
  X(REPLACE_ON_CHANGES, "replaceOnChanges", 1)                                           \
  X(ADDITIONAL_SECRET_OUTPUTS, "additionalSecretOutputs", 1)                             \
  X(VERSION, "version", 0)                                                               \
  X(PLUGIN_DOWNLOAD_URL, "pluginDownloadURL", 0)                                         \
  X(CUSTOM_TIMEOUTS, "customTimeouts", 0)                                                \
  X(ALIASES, "aliases", 0)                                                               \
  X(DELETED_WITH, "deletedWith", 0)                                                      \
  X(REPLACE_WITH, "replaceWith", 0)                                                      \
  X(IMPORT, "import", 0)                                                                 \
  X(REPLACEMENT_TRIGGER, "replacementTrigger", 0)                                        \
  X(ENV_VAR_MAPPINGS, "envVarMappings", 0)                                               \
  X(HOOKS, "hooks", 0)
