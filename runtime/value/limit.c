/* limit.c: the size limit of one value (pcl_set_value_limit,
 * --max-value-size), which every builder of a large value checks. */
#include "value/pcl_internal.h"

/* ------------------------------------------------------------- the limit */

/* The size limit of one value (pcl_set_value_limit). */
static size_t value_limit = PCL_VALUE_LIMIT_DEFAULT;

size_t pcl_value_limit(void) { return value_limit; }

void pcl_set_value_limit(size_t bytes) { value_limit = bytes; }

bool pcl__value_fits(size_t bytes, const char *what, pcl_error **err) {
  if (bytes <= value_limit) {
    return true;
  }
  *err = pcl_error_new("%s would take more than the limit of %zu bytes (--max-value-size)", what,
                       value_limit);
  return false;
}
