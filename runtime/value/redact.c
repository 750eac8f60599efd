/* redact.c: the redaction scopes: while one is open, a message shows no
 * operand (pcl_value_repr prints "[secret]", pcl__redact_text hides a C
 * string), so that an operation on a secret never reveals it. */
#include "value/pcl_internal.h"

/* ------------------------------------------------------------- redaction */

/* How many redaction scopes are open (pcl__redact_enter). */
static unsigned redact_depth;

void pcl__redact_enter(void) { redact_depth++; }

void pcl__redact_leave(void) { redact_depth--; }

bool pcl__redacting(void) { return redact_depth > 0; }

const char *pcl__redact_text(const char *text) { return redact_depth > 0 ? "[secret]" : text; }
