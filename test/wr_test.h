/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_test: the CUnit runner every unit-test executable shares. */
#ifndef WR_TEST_H
#define WR_TEST_H

#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

/* Directory of test fixtures, set by meson (test/fixtures). */
#ifndef WR_FIXTURES
#define WR_FIXTURES "test/fixtures"
#endif
/* Directory of the shipped stream files (streams/). */
#ifndef WR_STREAMS
#define WR_STREAMS "streams"
#endif

/**
 * Register @p suites (a CU_SuiteInfo table ending with CU_SUITE_INFO_NULL),
 * run them verbosely, and return non-zero when any assertion failed, so that
 * meson sees the failure.  A first argument names one suite to run alone.
 */
static inline int
wr_test_main(int argc, char **argv, CU_SuiteInfo *suites)
{
	unsigned int failures;
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "CU_register_suites: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (argc > 1) {
		s = CU_get_suite(argv[1]);
		if (s == NULL) {
			fprintf(stderr, "no suite %s\n", argv[1]);
			CU_cleanup_registry();
			return 2;
		}
		CU_basic_run_suite(s);
	} else {
		CU_basic_run_tests();
	}
	failures = CU_get_number_of_failures() +
		   CU_get_number_of_tests_failed();
	if (CU_get_run_summary() != NULL &&
	    CU_get_run_summary()->nTestsRun == 0)
		failures++; /* a suite that ran nothing proves nothing */
	CU_cleanup_registry();
	return failures != 0;
}

#endif /* WR_TEST_H */
