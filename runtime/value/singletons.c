/* singletons.c: the immortal values every program shares: null, true,
 * false and the unknown value of a preview.  They are static (refs == 0),
 * so retaining and releasing them does nothing and they are never freed. */
#include "value/pcl_internal.h"

pcl_value pcl_null_value = PCL_STATIC_NULL;
pcl_value pcl_true_value = PCL_STATIC_BOOL(true);
pcl_value pcl_false_value = PCL_STATIC_BOOL(false);
pcl_value pcl_unknown_value = {.kind = PCL_T_UNKNOWN};
