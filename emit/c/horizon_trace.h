/*
 * horizon_trace.h - write the Horizon trace protocol (docs/trace-protocol.md)
 * from a C or C++ chess engine, so that `horizon trace --engine` and
 * `horizon import` can record its search tree.
 *
 * One header, libc only, buffered. Define HORIZON_TRACE_OFF before including
 * it and every HZ_* macro compiles to nothing: zero cost. In exactly one
 * source file define HORIZON_TRACE_IMPL before including it.
 *
 * The stream goes where the environment variable HORIZON_TRACE says: a file
 * path, or "fd:N" for a file descriptor the parent left open (horizon trace
 * --engine passes a pipe that way). Unset or empty: tracing is off and each
 * macro costs one predictable branch. An engine may also call hz_open(PATH)
 * itself, from a UCI "setoption name HorizonTrace value PATH".
 *
 * The five lines a search adds:
 *   HZ_POSITION("startpos moves e2e4");          when a search starts (the
 *                                                first call opens HORIZON_TRACE)
 *   HZ_ROOT(depth, alpha, beta, iteration);      entering the root search
 *   HZ_ENTER("e7e5", depth, alpha, beta);        entering any other node
 *   HZ_LEAVE(score);                             every return of a node
 *   HZ_END("e7e5", nodes);                       when the search is done
 *                                                (HZ_END_MS adds its time in ms)
 * and optionally HZ_INIT(name, fail_hard) at startup (names the engine and
 * declares fail-hard scores), HZ_ENTER_KIND (explicit pv/nonpv/qs),
 * HZ_STANDPAT, HZ_MOVE, HZ_EXTENSION, HZ_LEAVE_WITH (a leave with its
 * bound, cause or best move), HZ_ABORT (a longjmp unwound the search),
 * HZ_PSEUDO_LEGAL (a king-capture engine), and HZ_SCALE(mate,
 * mate_min, mate_turns, infinity) before HZ_INIT: the engine's mate and
 * infinity values, so that Horizon prints its mates as #N and its window's
 * ends as ∞ (0 declares nothing; Ethereal: HZ_SCALE(MATE, MATE_IN_MAX, 0,
 * MATE); docs/trace-protocol.md, "mate" and "infinity").
 *
 * Nested searches (a search of the current node's own position from inside
 * it: IID, a singular extension's test, razoring, ProbCut, a null-move
 * verification): HZ_NESTED_SEARCHES() before HZ_INIT declares them (the
 * header says "HZT 4"), and HZ_NESTED(reason, depth, alpha, beta, excluded,
 * counted) enters one: reason "iid", "singular", "razor", "probcut",
 * "verify" or a word of the engine's own; its window seen from the node's
 * own side (not negated); excluded the move a singular test leaves out
 * (NULL or "" for none); counted 0 when the engine's node count has no node
 * for it (a loop over the node's moves, not a call of its search). HZ_LEAVE
 * closes it with its score, from that side too.
 *
 * Three conventions (docs/trace-protocol.md, "Conventions"): a QS node's
 * depth is 0 where QS begins and one less each QS ply below, as Horizon's own
 * engine writes it (a depth <= 0 reads as QS; a QS ply written as a positive
 * depth reads as full-width nodes unless HZ_ENTER_KIND says "qs"). When the
 * main search hands depth <= 0 to QS, the node is entered once, by whichever
 * function counts it. After the stop flag, HZ_ABORT() once the search has
 * unwound, then HZ_END, and nothing between: no HZ_LEAVE of the nodes the
 * abort closed, no node of a search that carries on.
 *
 * Not thread-safe: trace one search thread.
 */
#ifndef HORIZON_TRACE_H
#define HORIZON_TRACE_H

#ifdef HORIZON_TRACE_OFF

/* The arguments stay in sizeof: never evaluated, never "unused". */
#define HZ_U_(x) ((void)sizeof(x))
#define HZ_INIT(engine_name, fail_hard) (HZ_U_(engine_name), HZ_U_(fail_hard))
#define HZ_PSEUDO_LEGAL() ((void)0)
#define HZ_SCALE(mate, mate_min, mate_turns, infinity) \
    (HZ_U_(mate), HZ_U_(mate_min), HZ_U_(mate_turns), HZ_U_(infinity))
#define HZ_POSITION(uci_args) HZ_U_(uci_args)
#define HZ_LIMITS(text) HZ_U_(text)
#define HZ_ROOT(depth, alpha, beta, iteration) (HZ_U_(depth), HZ_U_(alpha), HZ_U_(beta), HZ_U_(iteration))
#define HZ_ENTER(move, depth, alpha, beta) (HZ_U_(move), HZ_U_(depth), HZ_U_(alpha), HZ_U_(beta))
#define HZ_ENTER_KIND(move, depth, alpha, beta, kind) \
    (HZ_U_(move), HZ_U_(depth), HZ_U_(alpha), HZ_U_(beta), HZ_U_(kind))
#define HZ_STANDPAT(eval) HZ_U_(eval)
#define HZ_MOVE(move, index) (HZ_U_(move), HZ_U_(index))
#define HZ_EXTENSION(plies) HZ_U_(plies)
#define HZ_LEAVE(score) HZ_U_(score)
#define HZ_LEAVE_WITH(score, bound, cause, best) (HZ_U_(score), HZ_U_(bound), HZ_U_(cause), HZ_U_(best))
#define HZ_ABORT() ((void)0)
#define HZ_END(best, nodes) (HZ_U_(best), HZ_U_(nodes))
#define HZ_END_MS(best, nodes, ms) (HZ_U_(best), HZ_U_(nodes), HZ_U_(ms))
#define HZ_NESTED_SEARCHES() ((void)0)
#define HZ_NESTED(reason, depth, alpha, beta, excluded, counted) \
    (HZ_U_(reason), HZ_U_(depth), HZ_U_(alpha), HZ_U_(beta), HZ_U_(excluded), HZ_U_(counted))
#define HZ_ACTIVE 0

#else

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The stream's state; hz_out is NULL while tracing is off. */
extern FILE *hz_out;

int hz_open(const char *dest, const char *engine_name, int fail_hard);
void hz_init(const char *engine_name, int fail_hard);
void hz_scale(long mate, long mate_min, int mate_turns, long infinity);
void hz_line(const char *record, const char *text);
void hz_position(const char *uci_args);
void hz_enter(const char *move, int depth, int alpha, int beta, const char *kind, int iteration);
void hz_int(char tag, long long value);
void hz_leave(long long score, const char *bound, const char *cause, const char *best);
void hz_move(const char *move, int index);
void hz_nested_searches(void);
void hz_nested(const char *reason, int depth, int alpha, int beta, const char *excluded, int counted);
void hz_end(const char *best, long long nodes, long long ms);
void hz_close(void);

#define HZ_ACTIVE (hz_out != NULL)
#define HZ_INIT(engine_name, fail_hard) hz_init((engine_name), (fail_hard))
#define HZ_PSEUDO_LEGAL() do { if (hz_out) hz_line("moves", "pseudo"); } while (0)
#define HZ_SCALE(mate, mate_min, mate_turns, infinity) hz_scale((mate), (mate_min), (mate_turns), (infinity))
#define HZ_POSITION(uci_args) hz_position((uci_args))
#define HZ_LIMITS(text) do { if (hz_out) hz_line("limits", (text)); } while (0)
#define HZ_ROOT(depth, alpha, beta, iteration) \
    do { if (hz_out) hz_enter("-", (depth), (alpha), (beta), NULL, (iteration)); } while (0)
#define HZ_ENTER(move, depth, alpha, beta) \
    do { if (hz_out) hz_enter((move), (depth), (alpha), (beta), NULL, -1); } while (0)
#define HZ_ENTER_KIND(move, depth, alpha, beta, kind) \
    do { if (hz_out) hz_enter((move), (depth), (alpha), (beta), (kind), -1); } while (0)
#define HZ_NESTED_SEARCHES() hz_nested_searches()
#define HZ_NESTED(reason, depth, alpha, beta, excluded, counted) \
    do { if (hz_out) hz_nested((reason), (depth), (alpha), (beta), (excluded), (counted)); } while (0)
#define HZ_STANDPAT(eval) do { if (hz_out) hz_int('S', (eval)); } while (0)
#define HZ_MOVE(move, index) do { if (hz_out) hz_move((move), (index)); } while (0)
#define HZ_EXTENSION(plies) do { if (hz_out) hz_int('X', (plies)); } while (0)
#define HZ_LEAVE(score) do { if (hz_out) hz_int('L', (score)); } while (0)
/* bound, cause, best: NULL or "" leaves the field out (Horizon derives it). */
#define HZ_LEAVE_WITH(score, bound, cause, best) \
    do { if (hz_out) hz_leave((score), (bound), (cause), (best)); } while (0)
#define HZ_ABORT() do { if (hz_out) fputs("A\n", hz_out); } while (0)
#define HZ_END(best, nodes) do { if (hz_out) hz_end((best), (nodes), -1); } while (0)
#define HZ_END_MS(best, nodes, ms) do { if (hz_out) hz_end((best), (nodes), (ms)); } while (0)

#ifdef HORIZON_TRACE_IMPL

FILE *hz_out = NULL;

#if !defined(_WIN32)
/* POSIX, but not declared by <stdio.h> under strict -std=c99. */
FILE *fdopen(int fd, const char *mode);
#endif

/* hz_buf: a large stdio buffer, so a node costs a few stores, not a write. */
static char hz_buf[1 << 16];

static char *hz_itoa(char *p, long long v) {
    char tmp[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    if (v < 0) *p++ = '-';
    do { tmp[n++] = (char)('0' + u % 10); u /= 10; } while (u);
    while (n) *p++ = tmp[--n];
    return p;
}

static char *hz_str(char *p, const char *s, size_t max) {
    while (*s && max--) *p++ = *s++;
    return p;
}

/* The score scale HZ_SCALE declared (0: none), written by hz_open. */
static long hz_mate, hz_mate_min, hz_infinity;
static int hz_mate_turns;
/* HZ_NESTED_SEARCHES declared nested searches: the header says "HZT 4". */
static int hz_nested_declared;

void hz_nested_searches(void) { hz_nested_declared = 1; }

static void hz_scale_records(void) {
    char b[96], *p;
    if (hz_mate) {
        p = hz_str(b, "mate ", 5);
        p = hz_itoa(p, hz_mate); *p++ = ' ';
        p = hz_itoa(p, hz_mate_min);
        p = hz_str(p, hz_mate_turns ? " turns\n" : " plies\n", 7);
        fwrite(b, 1, (size_t)(p - b), hz_out);
    }
    if (hz_infinity) {
        p = hz_str(b, "infinity ", 9);
        p = hz_itoa(p, hz_infinity);
        *p++ = '\n';
        fwrite(b, 1, (size_t)(p - b), hz_out);
    }
}

/* hz_scale declares the engine's mate and infinity values. Call it before
 * the stream opens (HZ_INIT, the first HZ_POSITION): the header then says
 * "HZT 2", the version that holds these records. Called later, it writes
 * them into a version 1 stream, which Horizon refuses saying so. */
void hz_scale(long mate, long mate_min, int mate_turns, long infinity) {
    hz_mate = mate; hz_mate_min = mate_min; hz_mate_turns = mate_turns; hz_infinity = infinity;
    if (hz_out) hz_scale_records();
}

/* hz_open starts a stream at dest (a path or "fd:N") and writes the header;
 * it returns 0, or -1 when dest cannot be opened (tracing stays off). */
int hz_open(const char *dest, const char *engine_name, int fail_hard) {
    FILE *f = NULL;
    if (dest == NULL || *dest == '\0') return -1;
    if (strncmp(dest, "fd:", 3) == 0) {
        char *end;
        long fd = strtol(dest + 3, &end, 10);
        if (*end != '\0' || fd < 0) return -1;
#if defined(_WIN32)
        f = _fdopen((int)fd, "w");
#else
        f = fdopen((int)fd, "w");
#endif
    } else {
        f = fopen(dest, "w");
    }
    if (f == NULL) return -1;
    if (hz_out != NULL) hz_close();
    setvbuf(f, hz_buf, _IOFBF, sizeof hz_buf);
    hz_out = f;
    /* A stream says the oldest version that holds its records. */
    fputs(hz_nested_declared ? "HZT 4\n" : hz_mate || hz_infinity ? "HZT 2\n" : "HZT 1\n", f);
    if (engine_name && *engine_name) hz_line("engine", engine_name);
    hz_line("scores", fail_hard ? "hard" : "soft");
    hz_scale_records();
    return 0;
}

static int hz_tried; /* HORIZON_TRACE was looked at */

/* hz_init opens the destination HORIZON_TRACE names, if any. */
void hz_init(const char *engine_name, int fail_hard) {
    const char *dest = getenv("HORIZON_TRACE");
    hz_tried = 1;
    if (dest && *dest) hz_open(dest, engine_name, fail_hard);
}

/* hz_position starts a search; the first call opens HORIZON_TRACE when
 * HZ_INIT did not. */
void hz_position(const char *uci_args) {
    if (!hz_tried) hz_init(NULL, 0);
    if (hz_out) hz_line("position", uci_args);
}

void hz_line(const char *record, const char *text) {
    fputs(record, hz_out);
    fputc(' ', hz_out);
    for (; *text; text++) fputc(*text == '\n' || *text == '\r' ? ' ' : *text, hz_out);
    fputc('\n', hz_out);
}

void hz_enter(const char *move, int depth, int alpha, int beta, const char *kind, int iteration) {
    char b[96], *p = b;
    *p++ = 'E'; *p++ = ' ';
    p = hz_str(p, move, 7); *p++ = ' ';
    p = hz_itoa(p, depth); *p++ = ' ';
    p = hz_itoa(p, alpha); *p++ = ' ';
    p = hz_itoa(p, beta);
    if (kind) { *p++ = ' '; *p++ = 'k'; *p++ = '='; p = hz_str(p, kind, 5); }
    if (iteration >= 0) { *p++ = ' '; *p++ = 'i'; *p++ = '='; p = hz_itoa(p, iteration); }
    *p++ = '\n';
    fwrite(b, 1, (size_t)(p - b), hz_out);
}

/* hz_nested writes "E - depth alpha beta n=reason [e=excluded] [u=1]". */
void hz_nested(const char *reason, int depth, int alpha, int beta, const char *excluded, int counted) {
    char b[128], *p = b;
    p = hz_str(p, "E - ", 4);
    p = hz_itoa(p, depth); *p++ = ' ';
    p = hz_itoa(p, alpha); *p++ = ' ';
    p = hz_itoa(p, beta);
    p = hz_str(p, " n=", 3); p = hz_str(p, reason, 32);
    if (excluded && *excluded) { p = hz_str(p, " e=", 3); p = hz_str(p, excluded, 7); }
    if (!counted) p = hz_str(p, " u=1", 4);
    *p++ = '\n';
    fwrite(b, 1, (size_t)(p - b), hz_out);
}

void hz_int(char tag, long long value) {
    char b[32], *p = b;
    *p++ = tag; *p++ = ' ';
    p = hz_itoa(p, value);
    *p++ = '\n';
    fwrite(b, 1, (size_t)(p - b), hz_out);
}

/* hz_leave writes "L score [b=bound] [c=cause] [m=best]". */
void hz_leave(long long score, const char *bound, const char *cause, const char *best) {
    char b[64], *p = b;
    *p++ = 'L'; *p++ = ' ';
    p = hz_itoa(p, score);
    if (bound && *bound) { p = hz_str(p, " b=", 3); p = hz_str(p, bound, 5); }
    if (cause && *cause) { p = hz_str(p, " c=", 3); p = hz_str(p, cause, 12); }
    if (best && *best) { p = hz_str(p, " m=", 3); p = hz_str(p, best, 7); }
    *p++ = '\n';
    fwrite(b, 1, (size_t)(p - b), hz_out);
}

void hz_move(const char *move, int index) {
    char b[48], *p = b;
    *p++ = 'M'; *p++ = ' ';
    p = hz_str(p, move, 7); *p++ = ' ';
    p = hz_itoa(p, index);
    *p++ = '\n';
    fwrite(b, 1, (size_t)(p - b), hz_out);
}

/* hz_end ends a search (best "" or NULL: none; nodes, ms < 0: not
 * reported) and flushes, so a reader sees the whole search at once. */
void hz_end(const char *best, long long nodes, long long ms) {
    char b[96], *p = b;
    p = hz_str(p, "end", 3);
    if (best && *best) { p = hz_str(p, " best=", 6); p = hz_str(p, best, 7); }
    if (nodes >= 0) { p = hz_str(p, " nodes=", 7); p = hz_itoa(p, nodes); }
    if (ms >= 0) { p = hz_str(p, " time=", 6); p = hz_itoa(p, ms); }
    *p++ = '\n';
    fwrite(b, 1, (size_t)(p - b), hz_out);
    fflush(hz_out);
}

void hz_close(void) {
    if (hz_out) {
        fclose(hz_out);
        hz_out = NULL;
    }
}

#endif /* HORIZON_TRACE_IMPL */

#ifdef __cplusplus
}
#endif

#endif /* HORIZON_TRACE_OFF */
#endif /* HORIZON_TRACE_H */
