/* The CUnit driver shared by the unit-test binaries.  Each binary is built
 * with its own suites.h on the include path; every X(name) line there names a
 * function register_<name>_tests(void) that adds one suite.  The exit status
 * is the number of failed tests (capped at 125), not CU_basic_run_tests()'s
 * return value, which reports only framework errors. */
#include <CUnit/Basic.h>
#include <stdio.h>

#define X(name) void register_##name##_tests(void);
#include "suites.h"
#undef X

int main(void) {
  if (CU_initialize_registry() != CUE_SUCCESS) {
    fprintf(stderr, "cannot initialise CUnit: %s\n", CU_get_error_msg());
    return 125;
  }
#define X(name) register_##name##_tests();
#include "suites.h"
#undef X
  CU_basic_set_mode(CU_BRM_NORMAL);
  CU_basic_run_tests();
  unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
  unsigned ran = CU_get_number_of_tests_run();
  CU_cleanup_registry();
  if (ran == 0) {
    fprintf(stderr, "no unit test ran\n");
    return 125;
  }
  return failed > 125 ? 125 : (int)failed;
}
