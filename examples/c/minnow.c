/*
 * minnow.c - a small, complete chess engine written to show how an engine is
 * instrumented for Horizon (docs/guide-c.md): legal move generation on a
 * 0x88 board, material and a small piece-square eval, iterative deepening
 * fail-soft alpha-beta with null-move pruning, and a quiescence search of
 * captures with stand pat. It speaks enough UCI for Horizon: uci, isready,
 * ucinewgame, position (startpos or fen, with moves), go depth N / go nodes
 * N, quit; and "perft N" to check its moves.
 *
 * Build, from this folder (the header is emit/c/horizon_trace.h; your engine
 * would keep a copy beside its sources):
 *   cc -O2 -I../../emit/c -o minnow minnow.c
 * and -DHORIZON_TRACE_OFF compiles the tracing away. With HORIZON_TRACE set
 * it writes the Horizon trace protocol there. The same engine as
 * examples/go and examples/python, node for node.
 */
#define HORIZON_TRACE_IMPL
#include "horizon_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

enum { EMPTY, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE_SHORT = 1, WHITE_LONG = 2, BLACK_SHORT = 4, BLACK_LONG = 8 };

/* Scores are centipawns from the side to move's view; a side mated at ply
 * k scores -MATE + k; INF is the root's window end. */
#define MATE 30000
#define MAX_PLY 128
#define MATE_MIN (MATE - MAX_PLY)
#define INF 32000
#define MAX_MOVES 256

static const char PIECES[] = " pnbrqk";
static const char *START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
static const int KNIGHT_STEPS[8] = {33, 31, 18, 14, -33, -31, -18, -14};
static const int KING_STEPS[8] = {1, -1, 16, -16, 17, 15, -17, -15};
static const int BISHOP_STEPS[4] = {17, 15, -17, -15};
static const int ROOK_STEPS[4] = {1, -1, 16, -16};
static const int PIECE_VALUE[7] = {0, 100, 320, 330, 500, 900, 0};

/* A move; promo is the piece promoted to. The zero move is the null move. */
typedef struct { signed char from, to, promo; } Move;
static const Move NULL_MOVE = {0, 0, 0};
static const Move NO_MOVE = {-1, -1, 0};

static int same(Move a, Move b) { return a.from == b.from && a.to == b.to && a.promo == b.promo; }

/* move_uci writes m as UCI does (0000 for the null move) into buf. */
static const char *move_uci(Move m, char *buf) {
    if (same(m, NULL_MOVE) || same(m, NO_MOVE)) return strcpy(buf, "0000");
    buf[0] = (char)('a' + (m.from & 7)); buf[1] = (char)('1' + (m.from >> 4));
    buf[2] = (char)('a' + (m.to & 7)); buf[3] = (char)('1' + (m.to >> 4));
    buf[4] = m.promo ? "  nbrq"[m.promo] : '\0';
    buf[5] = '\0';
    return buf;
}

typedef struct { Move m; int captured, castle, ep, halfmove; } Undo;

/* The board is 0x88: square = rank*16 + file; sq & 0x88 is off the board.
 * A piece is its type, positive for White, negative for Black. */
static struct {
    int sq[128];
    int white; /* White to move */
    int castle, ep, halfmove, fullmove;
    int kings[2]; /* White's, Black's */
    Undo hist[1024];
    int nhist;
} pos;

static int us(void) { return pos.white ? 1 : -1; }
static int side(int white) { return white ? 0 : 1; }

/* parse_fen reads a FEN into pos; the move counters may be left out. It
 * returns NULL, or what is wrong. */
static const char *parse_fen(const char *fen) {
    char board[100], stm[4], castle[8], ep[4];
    int half = 0, full = 1, rank = 7, file = 0, n;
    const char *c;
    n = sscanf(fen, "%99s %3s %7s %3s %d %d", board, stm, castle, ep, &half, &full);
    if (n < 4) return "FEN: want at least 4 fields (board, side, castling, en passant)";
    memset(&pos, 0, sizeof pos);
    pos.kings[0] = pos.kings[1] = -1;
    for (c = board; *c; c++) {
        if (*c == '/') {
            if (file != 8 || rank == 0) return "FEN board: a rank does not hold 8 squares";
            rank--; file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
        } else {
            const char *t = strchr(PIECES, *c | 0x20);
            if (t == NULL || t == PIECES || file > 7) return "FEN board: bad piece or too many squares";
            pos.sq[rank * 16 + file] = *c < 'a' ? (int)(t - PIECES) : -(int)(t - PIECES);
            if ((*c | 0x20) == 'k') pos.kings[side(*c < 'a')] = rank * 16 + file;
            file++;
        }
        if (file > 8) return "FEN board: a rank holds more than 8 squares";
    }
    if (rank != 0 || file != 8) return "FEN board: want 8 ranks of 8 squares";
    if (pos.kings[0] < 0 || pos.kings[1] < 0) return "FEN board: each side needs a king";
    if (strcmp(stm, "w") && strcmp(stm, "b")) return "FEN side to move: want w or b";
    pos.white = stm[0] == 'w';
    if (strcmp(castle, "-")) {
        for (c = castle; *c; c++) {
            const char *k = strchr("KQkq", *c);
            if (k == NULL) return "FEN castling: want KQkq or -";
            pos.castle |= 1 << (k - "KQkq");
        }
    }
    pos.ep = -1;
    if (strcmp(ep, "-")) {
        if (strlen(ep) != 2 || ep[0] < 'a' || ep[0] > 'h' || (ep[1] != '3' && ep[1] != '6'))
            return "FEN en passant: want a square on rank 3 or 6, or -";
        pos.ep = (ep[1] - '1') * 16 + (ep[0] - 'a');
    }
    if (half < 0 || full < 0) return "FEN move counters: want numbers";
    pos.halfmove = half; pos.fullmove = full;
    return NULL;
}

/* attacked: is square sq attacked by the side whose pieces have sign by? */
static int attacked(int sq, int by) {
    int i, d, s;
    for (i = 0; i < 2; i++) { /* a pawn of by's attacks from one rank behind */
        s = sq - by * (i ? 17 : 15);
        if (!(s & 0x88) && pos.sq[s] == by * PAWN) return 1;
    }
    for (i = 0; i < 8; i++) {
        s = sq + KNIGHT_STEPS[i];
        if (!(s & 0x88) && pos.sq[s] == by * KNIGHT) return 1;
        s = sq + KING_STEPS[i];
        if (!(s & 0x88) && pos.sq[s] == by * KING) return 1;
    }
    for (i = 0; i < 8; i++) {
        d = KING_STEPS[i];
        for (s = sq + d; !(s & 0x88); s += d) {
            int p = pos.sq[s] * by;
            if (p == QUEEN || p == (i < 4 ? ROOK : BISHOP)) return 1;
            if (pos.sq[s]) break;
        }
    }
    return 0;
}

static int in_check(void) { return attacked(pos.kings[side(pos.white)], -us()); }

static int add(Move *ms, int n, int from, int to, int promo) {
    ms[n].from = (signed char)from; ms[n].to = (signed char)to; ms[n].promo = (signed char)promo;
    return n + 1;
}

static int steps(Move *ms, int n, int from, const int *dirs, int ndirs, int slide, int captures) {
    int i, to;
    for (i = 0; i < ndirs; i++) {
        for (to = from + dirs[i]; !(to & 0x88); to += dirs[i]) {
            if (pos.sq[to] * us() > 0) break;
            if (pos.sq[to] || !captures) n = add(ms, n, from, to, 0);
            if (pos.sq[to] || !slide) break;
        }
    }
    return n;
}

static int pawn_to(Move *ms, int n, int from, int to) {
    int r = to >> 4, p;
    if (r != 0 && r != 7) return add(ms, n, from, to, 0);
    for (p = QUEEN; p >= KNIGHT; p--) n = add(ms, n, from, to, p);
    return n;
}

static int pawn_moves(Move *ms, int n, int from, int captures) {
    int fwd = 16 * us(), i, to;
    for (i = -1; i <= 1; i += 2) {
        to = from + fwd + i;
        if (!(to & 0x88) && (pos.sq[to] * us() < 0 || to == pos.ep)) n = pawn_to(ms, n, from, to);
    }
    if (captures) return n;
    to = from + fwd;
    if (pos.sq[to] == EMPTY) {
        n = pawn_to(ms, n, from, to);
        if (((from >> 4) == 1 && us() > 0) || ((from >> 4) == 6 && us() < 0)) {
            if (pos.sq[to + fwd] == EMPTY) n = add(ms, n, from, to + fwd, 0);
        }
    }
    return n;
}

static int castling(Move *ms, int n, int from) {
    int shrt = pos.white ? WHITE_SHORT : BLACK_SHORT, lng = pos.white ? WHITE_LONG : BLACK_LONG;
    if (!(pos.castle & (shrt | lng)) || attacked(from, -us())) return n;
    if ((pos.castle & shrt) && !pos.sq[from + 1] && !pos.sq[from + 2] && !attacked(from + 1, -us()))
        n = add(ms, n, from, from + 2, 0);
    if ((pos.castle & lng) && !pos.sq[from - 1] && !pos.sq[from - 2] && !pos.sq[from - 3] && !attacked(from - 1, -us()))
        n = add(ms, n, from, from - 2, 0);
    return n;
}

/* pseudo writes the side to move's pseudo-legal moves (captures and
 * capturing promotions only when captures is set) and returns how many. */
static int pseudo(Move *ms, int captures) {
    int n = 0, from;
    for (from = 0; from < 128; from++) {
        if ((from & 0x88) || pos.sq[from] * us() <= 0) continue;
        switch (pos.sq[from] * us()) {
        case PAWN: n = pawn_moves(ms, n, from, captures); break;
        case KNIGHT: n = steps(ms, n, from, KNIGHT_STEPS, 8, 0, captures); break;
        case BISHOP: n = steps(ms, n, from, BISHOP_STEPS, 4, 1, captures); break;
        case ROOK: n = steps(ms, n, from, ROOK_STEPS, 4, 1, captures); break;
        case QUEEN: n = steps(ms, n, from, KING_STEPS, 8, 1, captures); break;
        case KING:
            n = steps(ms, n, from, KING_STEPS, 8, 0, captures);
            if (!captures) n = castling(ms, n, from);
            break;
        }
    }
    return n;
}

/* The castling rights a move from or to a square keeps. */
static int castle_mask(int sq) {
    switch (sq) {
    case 0x00: return 15 & ~WHITE_LONG;
    case 0x07: return 15 & ~WHITE_SHORT;
    case 0x04: return 15 & ~(WHITE_SHORT | WHITE_LONG);
    case 0x70: return 15 & ~BLACK_LONG;
    case 0x77: return 15 & ~BLACK_SHORT;
    case 0x74: return 15 & ~(BLACK_SHORT | BLACK_LONG);
    }
    return 15;
}

/* make plays m (NULL_MOVE passes). */
static void make(Move m) {
    Undo *u = &pos.hist[pos.nhist++];
    u->m = m; u->castle = pos.castle; u->ep = pos.ep; u->halfmove = pos.halfmove; u->captured = EMPTY;
    pos.ep = -1;
    pos.halfmove++;
    if (!same(m, NULL_MOVE)) {
        int from = m.from, to = m.to, pc = pos.sq[from], t = abs(pc);
        u->captured = pos.sq[to];
        if (t == PAWN && to == u->ep) { /* en passant: the pawn taken is beside to */
            u->captured = pos.sq[to - 16 * us()];
            pos.sq[to - 16 * us()] = EMPTY;
        } else if (t == KING && abs(to - from) == 2) { /* castling moves the rook too */
            int rf = to > from ? from + 3 : from - 4, rt = to > from ? from + 1 : from - 1;
            pos.sq[rt] = pos.sq[rf]; pos.sq[rf] = EMPTY;
        }
        if (t == PAWN && abs(to - from) == 32) pos.ep = (from + to) / 2;
        if (t == PAWN || u->captured) pos.halfmove = 0;
        pos.sq[to] = m.promo ? m.promo * us() : pc;
        pos.sq[from] = EMPTY;
        if (t == KING) pos.kings[side(pos.white)] = to;
        pos.castle &= castle_mask(from) & castle_mask(to);
    }
    if (!pos.white) pos.fullmove++;
    pos.white = !pos.white;
}

/* unmake takes back the last move made. */
static void unmake(void) {
    Undo *u = &pos.hist[--pos.nhist];
    Move m = u->m;
    int from, to, pc;
    pos.white = !pos.white;
    if (!pos.white) pos.fullmove--;
    pos.castle = u->castle; pos.ep = u->ep; pos.halfmove = u->halfmove;
    if (same(m, NULL_MOVE)) return;
    from = m.from; to = m.to;
    pc = m.promo ? PAWN * us() : pos.sq[to];
    pos.sq[from] = pc;
    pos.sq[to] = u->captured;
    if (abs(pc) == PAWN && to == u->ep) {
        pos.sq[to] = EMPTY;
        pos.sq[to - 16 * us()] = u->captured;
    } else if (abs(pc) == KING && abs(to - from) == 2) {
        int rf = to > from ? from + 3 : from - 4, rt = to > from ? from + 1 : from - 1;
        pos.sq[rf] = pos.sq[rt]; pos.sq[rt] = EMPTY;
    }
    if (abs(pc) == KING) pos.kings[side(pos.white)] = from;
}

/* legal writes the legal moves (captures only when captures is set): the
 * pseudo-legal ones that leave the mover's king unattacked. */
static int legal(Move *ms, int captures) {
    int n = pseudo(ms, captures), k = 0, i;
    for (i = 0; i < n; i++) {
        make(ms[i]);
        if (!attacked(pos.kings[side(!pos.white)], us())) ms[k++] = ms[i];
        unmake();
    }
    return k;
}

static long long perft(int depth) {
    Move ms[MAX_MOVES];
    long long n = 0;
    int i, k;
    if (depth == 0) return 1;
    k = legal(ms, 0);
    for (i = 0; i < k; i++) {
        make(ms[i]);
        n += perft(depth - 1);
        unmake();
    }
    return n;
}

/* eval: material and a small piece-square bonus (pawns for advancing,
 * knights and bishops for standing near the centre); side to move's view. */
static int eval(void) {
    int sq, score = 0;
    for (sq = 0; sq < 128; sq++) {
        int pc = pos.sq[sq], t = abs(pc), rank = sq >> 4, file = sq & 7, v, df, dr;
        if ((sq & 0x88) || !pc) continue;
        if (pc < 0) rank = 7 - rank;
        v = PIECE_VALUE[t];
        if (t == PAWN) v += 5 * (rank - 1);
        if (t == KNIGHT || t == BISHOP) {
            df = abs(2 * file - 7); dr = abs(2 * rank - 7);
            v += 5 * (3 - (df > dr ? df : dr) / 2);
        }
        score += pc > 0 ? v : -v;
    }
    return pos.white ? score : -score;
}

/* The search's state. The stop flag, once set, stays set: every node
 * returns at once writing nothing, and the driver writes one abort. */
static long long nodes, max_nodes;
static int stopped;
static Move root_best, pv_move;

static int stop(void) {
    if (max_nodes > 0 && nodes >= max_nodes) stopped = 1;
    return stopped;
}

/* enter counts a node and writes its enter record: one place for both, so
 * the engine's count and the stream's cannot part. The macros test whether
 * the stream is open before they evaluate move_uci. */
static void enter(Move m, int depth, int alpha, int beta, int ply) {
    char buf[8];
    nodes++;
    if (ply == 0) HZ_ROOT(depth, alpha, beta, depth);
    else HZ_ENTER(move_uci(m, buf), depth, alpha, beta);
}

static int leave(int score) {
    HZ_LEAVE(score);
    return score;
}

/* order sorts moves as the search tries them: the root's last best move,
 * then captures by most valuable victim, least valuable attacker, then the
 * rest as generated (a stable insertion sort). */
static int key(Move m, int ply) {
    int v = abs(pos.sq[m.to]), a = abs(pos.sq[m.from]);
    if (ply == 0 && same(m, pv_move)) return 1 << 20;
    if (!v && !m.promo) return 0;
    return 10 * PIECE_VALUE[v] + PIECE_VALUE[(int)m.promo] - a;
}

static void order(Move *ms, int n, int ply) {
    int i, j, k;
    for (i = 1; i < n; i++) {
        Move m = ms[i];
        k = key(m, ply);
        for (j = i; j > 0 && key(ms[j - 1], ply) < k; j--) ms[j] = ms[j - 1];
        ms[j] = m;
    }
}

static int has_pieces(void) {
    int sq;
    for (sq = 0; sq < 128; sq++)
        if (!(sq & 0x88) && pos.sq[sq] * us() > PAWN && pos.sq[sq] * us() < KING) return 1;
    return 0;
}

/* quiesce searches captures only, standing pat on the static eval. depth is
 * 0 where the main search handed over and one less each QS ply below
 * (Horizon's own convention; Horizon reads QS nodes off depth <= 0). */
static int quiesce(Move m, int depth, int alpha, int beta, int ply) {
    Move ms[MAX_MOVES];
    char buf[8];
    int n, i, stand, best, score;
    if (stop()) return 0;
    enter(m, depth, alpha, beta, ply);
    stand = eval();
    HZ_STANDPAT(stand);
    if (stand >= beta || ply >= MAX_PLY - 1) return leave(stand);
    best = stand;
    n = legal(ms, 1);
    order(ms, n, ply);
    for (i = 0; i < n; i++) {
        HZ_MOVE(move_uci(ms[i], buf), i);
        make(ms[i]);
        score = -quiesce(ms[i], depth - 1, -beta, -(alpha > best ? alpha : best), ply + 1);
        unmake();
        if (stopped) return 0;
        if (score > best) {
            best = score;
            if (score >= beta) break;
        }
    }
    return leave(best);
}

/* search is fail-soft alpha-beta with null-move pruning. At depth <= 0 it
 * hands the node to quiesce before entering it: the QS node is quiesce's
 * to enter and leave, so it is one node, counted and written once. */
static int search(Move m, int depth, int alpha, int beta, int ply) {
    Move ms[MAX_MOVES];
    char buf[8];
    int n, i, best, score, check;
    if (depth <= 0) return quiesce(m, 0, alpha, beta, ply);
    if (stop()) return 0;
    enter(m, depth, alpha, beta, ply);
    check = in_check();

    /* Null move: the node's move is 0000, and it has no HZ_MOVE (M records
     * name real moves). */
    if (ply > 0 && depth >= 3 && !check && beta < MATE_MIN && has_pieces()) {
        make(NULL_MOVE);
        score = -search(NULL_MOVE, depth - 3, -beta, -beta + 1, ply + 1);
        unmake();
        if (stopped) return 0;
        if (score >= beta) return leave(score);
    }

    n = legal(ms, 0);
    if (n == 0) return leave(check ? -MATE + ply : 0);
    order(ms, n, ply);
    best = -INF;
    for (i = 0; i < n; i++) {
        HZ_MOVE(move_uci(ms[i], buf), i);
        make(ms[i]);
        score = -search(ms[i], depth - 1, -beta, -(alpha > best ? alpha : best), ply + 1);
        unmake();
        if (stopped) return 0; /* no leave: the driver's abort closes the node */
        if (score > best) {
            best = score;
            if (ply == 0) root_best = ms[i];
            if (score >= beta) break;
        }
    }
    return leave(best);
}

static long long now_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* go is iterative deepening: one root per depth, an info line per finished
 * iteration; it prints the bestmove of the last one. */
static void go(const char *pos_args, const char *limits, int depth) {
    Move ms[MAX_MOVES], best = NO_MOVE;
    char buf[8];
    long long start = now_ms();
    int d, score;
    HZ_POSITION(pos_args);
    HZ_LIMITS(limits);
    nodes = 0; stopped = 0; pv_move = NO_MOVE;
    if (legal(ms, 0) > 0) best = ms[0]; /* what a search stopped at once plays */
    for (d = 1; d <= depth && !same(best, NO_MOVE); d++) {
        score = search(NULL_MOVE, d, -INF, INF, 0);
        if (stopped) break;
        best = pv_move = root_best;
        if (score >= MATE_MIN) printf("info depth %d score mate %d", d, (MATE - score + 1) / 2);
        else if (score <= -MATE_MIN) printf("info depth %d score mate %d", d, -(MATE + score) / 2);
        else printf("info depth %d score cp %d", d, score);
        printf(" nodes %lld time %lld pv %s\n", nodes, now_ms() - start, move_uci(best, buf));
        fflush(stdout);
    }
    /* One abort closes every node the stop left open; nothing follows it but
     * the end record (no leave of those nodes, no node searched after the
     * stop flag). */
    if (stopped) HZ_ABORT();
    HZ_END_MS(move_uci(best, buf), nodes, now_ms() - start);
    printf("bestmove %s\n", move_uci(best, buf));
    fflush(stdout);
}

/* position reads a UCI position command's arguments into pos. */
static const char *position(char *args) {
    char *moves = strstr(args, " moves");
    const char *err;
    Move ms[MAX_MOVES];
    char buf[8], *tok;
    int n, i;
    if (moves) *moves = '\0';
    if (strncmp(args, "startpos", 8) == 0) err = parse_fen(START_FEN);
    else if (strncmp(args, "fen ", 4) == 0) err = parse_fen(args + 4);
    else return "position: want startpos or fen";
    if (moves) *moves = ' ';
    if (err || !moves) return err;
    for (tok = strtok(moves + 6, " \n"); tok; tok = strtok(NULL, " \n")) {
        n = legal(ms, 0);
        for (i = 0; i < n && strcmp(move_uci(ms[i], buf), tok); i++) {}
        if (i == n) return "position: an illegal move";
        make(ms[i]);
        pos.nhist = 0; /* the game's moves are never taken back */
    }
    return NULL;
}

int main(void) {
    char line[8192], pos_args[8192] = "startpos";
    HZ_SCALE(MATE, MATE_MIN, 0, INF); /* before HZ_INIT: Horizon shows mates as #N */
    HZ_INIT("Minnow (C) 1.0", 0);     /* opens HORIZON_TRACE, if set */
    parse_fen(START_FEN);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "uci") == 0) {
            printf("id name Minnow (C) 1.0\nid author the Horizon authors\nuciok\n");
        } else if (strcmp(line, "isready") == 0) {
            printf("readyok\n");
        } else if (strncmp(line, "position ", 9) == 0) {
            char args[8192];
            const char *err;
            strcpy(args, line + 9);
            err = position(args);
            if (err) printf("info string %s\n", err);
            else strcpy(pos_args, line + 9);
        } else if (strncmp(line, "go", 2) == 0) {
            char *p;
            int depth = 5;
            max_nodes = 0;
            if ((p = strstr(line, "depth "))) depth = atoi(p + 6);
            if ((p = strstr(line, "nodes "))) { max_nodes = atoll(p + 6); depth = MAX_PLY / 2; }
            if (depth < 1) depth = 1;
            if (depth > MAX_PLY / 2) depth = MAX_PLY / 2;
            go(pos_args, line[2] ? line + 3 : "", depth);
        } else if (strncmp(line, "perft ", 6) == 0) {
            printf("perft %d %lld\n", atoi(line + 6), perft(atoi(line + 6)));
        } else if (strcmp(line, "quit") == 0) {
            break;
        }
        fflush(stdout);
    }
    return 0; /* exit flushes the stream: HZ_END flushed each search already */
}
