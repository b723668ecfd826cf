/* hztest.c - a tiny fixed "search" written through horizon_trace.h; the Go
 * test emit/c_test.go builds it with tracing on and off and imports what it
 * writes. */
#include <stdio.h>

#define HORIZON_TRACE_IMPL
#include "horizon_trace.h"

static long long nodes;

/* A two-ply tree from the start position with a QS node and a null move. */
static int leaf(const char *move, int depth, int alpha, int beta, int score) {
    nodes++;
    HZ_ENTER(move, depth, alpha, beta);
    HZ_STANDPAT(score);
    HZ_LEAVE(score);
    return score;
}

int main(void) {
#ifdef HZTEST_SCALE
    HZ_SCALE(900, 800, 0, 1000); /* the window [-1000, 1000] is unbounded */
#endif
#ifdef HZTEST_NESTED
    HZ_NESTED_SEARCHES();
#endif
#ifndef HZTEST_NO_INIT
    HZ_INIT("hztest 1.0", 0);
#endif
    HZ_POSITION("startpos");
    HZ_LIMITS("depth 2");
    for (int iter = 1; iter <= 2; iter++) {
        nodes++;
        HZ_ROOT(iter, -1000, 1000, iter);
#ifdef HZTEST_NESTED
        /* An IID search of the root's position (a node counted) and a
         * singular test of e2e4 (a loop over the other moves: none). */
        nodes++;
        HZ_NESTED("iid", iter - 1, -1000, 1000, NULL, 1);
        HZ_LEAVE(-leaf("d2d4", -1, -1000, 1000, 5));
        HZ_NESTED("singular", iter - 1, -11, -10, "e2e4", 0);
        HZ_LEAVE(-leaf("d2d4", -1, 10, 11, 5));
#endif
        nodes++;
        HZ_MOVE("e2e4", 0);
        HZ_ENTER_KIND("e2e4", iter - 1, -1000, 1000, iter > 1 ? "pv" : "qs");
        int v = -leaf("e7e5", iter - 2, -1000, 1000, 10);
        HZ_EXTENSION(1);
        v = -leaf("0000", iter - 2, -1000, 1000, 30) > v ? -30 : v;
        HZ_LEAVE(v);
        HZ_LEAVE_WITH(-v, NULL, NULL, "e2e4");
    }
    HZ_END("e2e4", nodes);
    printf("nodes %lld active %d\n", nodes, HZ_ACTIVE);
    return 0;
}
