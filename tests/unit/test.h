/*
 * test.h - the tiny assertion kit every C unit test uses.
 *
 * A test file defines static void test_NAME(void) functions and a main that
 * calls RUN(test_NAME) for each, then returns TEST_SUMMARY(). A failed CHECK
 * prints file:line and the expression, marks the current test failed and
 * carries on; REQUIRE also returns from the test function. The last line a
 * test binary prints is "RESULT <file>: N passed, M failed", which
 * tests/run.sh adds up.
 */
#ifndef CONCLAVE_TEST_H
#define CONCLAVE_TEST_H

#include <stdio.h>
#include <string.h>
#include <time.h>

static int test_passed_, test_failed_, test_current_failed_;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
            test_current_failed_ = 1;                                          \
        }                                                                      \
    } while (0)

#define CHECKF(cond, ...)                                                      \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__,   \
                    #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            test_current_failed_ = 1;                                          \
        }                                                                      \
    } while (0)

#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                    \
            test_current_failed_ = 1;                                          \
            return;                                                            \
        }                                                                      \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                     \
    do {                                                                       \
        long long a_ = (long long)(a), b_ = (long long)(b);                    \
        if (a_ != b_) {                                                        \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",          \
                    __FILE__, __LINE__, #a, #b, a_, b_);                       \
            test_current_failed_ = 1;                                          \
        }                                                                      \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                     \
    do {                                                                       \
        const char *a_ = (a), *b_ = (b);                                       \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                               \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n",      \
                    __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",            \
                    b_ ? b_ : "(null)");                                       \
            test_current_failed_ = 1;                                          \
        }                                                                      \
    } while (0)

/* Each test's line carries the CPU time it took, to find the slow ones. */
#define RUN(fn)                                                                \
    do {                                                                       \
        test_current_failed_ = 0;                                              \
        clock_t test_t0_ = clock();                                            \
        fn();                                                                  \
        double test_cpu_ = (double)(clock() - test_t0_) / CLOCKS_PER_SEC;      \
        if (test_current_failed_) {                                            \
            test_failed_++;                                                    \
            fprintf(stderr, "FAIL %s (%.2f s CPU)\n", #fn, test_cpu_);         \
        } else {                                                               \
            test_passed_++;                                                    \
            fprintf(stderr, "ok   %s (%.2f s CPU)\n", #fn, test_cpu_);         \
        }                                                                      \
    } while (0)

#define TEST_SUMMARY()                                                         \
    (printf("RESULT %s: %d passed, %d failed\n", __FILE__, test_passed_,       \
            test_failed_),                                                     \
     test_failed_ ? 1 : 0)

#endif
