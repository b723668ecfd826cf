#!/usr/bin/env python3
"""Minnow - a small, complete chess engine written to show how an engine is
instrumented for Horizon (docs/guide-python.md): legal move generation on a
0x88 board, material and a small piece-square eval, iterative deepening
fail-soft alpha-beta with null-move pruning, and a quiescence search of
captures with stand pat. It speaks enough UCI for Horizon: uci, isready,
ucinewgame, position (startpos or fen, with moves), go depth N / go nodes N,
quit; and "perft N" to check its moves.

With HORIZON_TRACE set it writes the Horizon trace protocol there. The same
engine as examples/c and examples/go, node for node (only slower).
"""

import os
import sys
import time

# horizon_trace.py is emit/python/horizon_trace.py; your engine would keep a
# copy beside it and import it as is. No bytecode is written: the guide runs
# this file from a checkout, which should not fill with __pycache__ folders.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "emit", "python"))
import horizon_trace  # noqa: E402

EMPTY, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(7)
WHITE_SHORT, WHITE_LONG, BLACK_SHORT, BLACK_LONG = 1, 2, 4, 8

# Scores are centipawns from the side to move's view; a side mated at ply k
# scores -MATE + k; INF is the root's window end.
MATE = 30000
MAX_PLY = 128
MATE_MIN = MATE - MAX_PLY
INF = 32000

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KNIGHT_STEPS = (33, 31, 18, 14, -33, -31, -18, -14)
KING_STEPS = (1, -1, 16, -16, 17, 15, -17, -15)
BISHOP_STEPS = (17, 15, -17, -15)
ROOK_STEPS = (1, -1, 16, -16)
PIECE_VALUE = (0, 100, 320, 330, 500, 900, 0)

# A move is a tuple (from, to, promo); promo is the piece promoted to, 0 for
# none. NULL_MOVE passes.
NULL_MOVE = (0, 0, 0)
NO_MOVE = (-1, -1, 0)


def uci(m):
    """m as UCI writes it: e2e4, e7e8q, 0000 for the null move."""
    if m == NULL_MOVE or m == NO_MOVE:
        return "0000"
    f, t, pr = m
    s = "abcdefgh"[f & 7] + str((f >> 4) + 1) + "abcdefgh"[t & 7] + str((t >> 4) + 1)
    return s + ("  nbrq"[pr] if pr else "")


class FENError(ValueError):
    pass


def castle_mask(sq):
    """The castling rights a move from or to sq keeps."""
    return {0x00: 15 & ~WHITE_LONG, 0x07: 15 & ~WHITE_SHORT, 0x04: 15 & ~(WHITE_SHORT | WHITE_LONG),
            0x70: 15 & ~BLACK_LONG, 0x77: 15 & ~BLACK_SHORT, 0x74: 15 & ~(BLACK_SHORT | BLACK_LONG)}.get(sq, 15)


CASTLE_MASK = [castle_mask(sq) for sq in range(128)]


class Position:
    """A 0x88 board (square = rank*16 + file; sq & 0x88 is off the board); a
    piece is its type, positive for White and negative for Black."""

    def __init__(self, fen=START_FEN):
        f = fen.split()
        if len(f) < 4:
            raise FENError("FEN %r: want at least 4 fields (board, side, castling, en passant)" % fen)
        self.sq = [EMPTY] * 128
        self.kings = [-1, -1]  # White's, Black's
        rank, file = 7, 0
        for c in f[0]:
            if c == "/":
                if file != 8 or rank == 0:
                    raise FENError("FEN board %r: rank %d does not hold 8 squares" % (f[0], rank + 1))
                rank, file = rank - 1, 0
            elif c in "12345678":
                file += int(c)
            else:
                t = " pnbrqk".find(c.lower())
                if t <= 0 or file > 7:
                    raise FENError("FEN board %r: bad piece or too many squares at %r" % (f[0], c))
                self.sq[rank * 16 + file] = t if c.isupper() else -t
                if t == KING:
                    self.kings[0 if c.isupper() else 1] = rank * 16 + file
                file += 1
            if file > 8:
                raise FENError("FEN board %r: rank %d holds more than 8 squares" % (f[0], rank + 1))
        if rank != 0 or file != 8:
            raise FENError("FEN board %r: want 8 ranks of 8 squares" % f[0])
        if min(self.kings) < 0:
            raise FENError("FEN board %r: each side needs a king" % f[0])
        if f[1] not in ("w", "b"):
            raise FENError("FEN side to move %r: want w or b" % f[1])
        self.white = f[1] == "w"
        self.castle = 0
        if f[2] != "-":
            for c in f[2]:
                if c not in "KQkq":
                    raise FENError("FEN castling %r: want KQkq or -" % f[2])
                self.castle |= 1 << "KQkq".index(c)
        self.ep = -1
        if f[3] != "-":
            if len(f[3]) != 2 or f[3][0] not in "abcdefgh" or f[3][1] not in "36":
                raise FENError("FEN en passant %r: want a square on rank 3 or 6, or -" % f[3])
            self.ep = (int(f[3][1]) - 1) * 16 + "abcdefgh".index(f[3][0])
        try:
            self.halfmove = int(f[4]) if len(f) > 4 else 0
            self.fullmove = int(f[5]) if len(f) > 5 else 1
        except ValueError:
            raise FENError("FEN move counters %r: want numbers" % " ".join(f[4:]))
        self.hist = []

    def us(self):
        return 1 if self.white else -1

    def attacked(self, sq, by):
        """Is square sq attacked by the side whose pieces have sign by?"""
        b = self.sq
        for d in (15, 17):  # a pawn of by's attacks from one rank behind
            s = sq - by * d
            if not s & 0x88 and b[s] == by * PAWN:
                return True
        for d in KNIGHT_STEPS:
            s = sq + d
            if not s & 0x88 and b[s] == by * KNIGHT:
                return True
        for i, d in enumerate(KING_STEPS):
            s = sq + d
            if not s & 0x88 and b[s] == by * KING:
                return True
            slider = ROOK if i < 4 else BISHOP
            while not s & 0x88:
                p = b[s] * by
                if p == QUEEN or p == slider:
                    return True
                if b[s]:
                    break
                s += d
        return False

    def in_check(self):
        return self.attacked(self.kings[0 if self.white else 1], -self.us())

    def pseudo(self, captures):
        """The side to move's pseudo-legal moves (captures and capturing
        promotions only when captures is set)."""
        ms, b, us = [], self.sq, self.us()
        for frm in range(128):
            if frm & 0x88 or b[frm] * us <= 0:
                continue
            t = b[frm] * us
            if t == PAWN:
                self.pawn_moves(ms, frm, captures)
            elif t == KNIGHT:
                self.steps(ms, frm, KNIGHT_STEPS, False, captures)
            elif t == BISHOP:
                self.steps(ms, frm, BISHOP_STEPS, True, captures)
            elif t == ROOK:
                self.steps(ms, frm, ROOK_STEPS, True, captures)
            elif t == QUEEN:
                self.steps(ms, frm, KING_STEPS, True, captures)
            else:
                self.steps(ms, frm, KING_STEPS, False, captures)
                if not captures:
                    self.castling(ms, frm)
        return ms

    def steps(self, ms, frm, dirs, slide, captures):
        b, us = self.sq, self.us()
        for d in dirs:
            to = frm + d
            while not to & 0x88:
                if b[to] * us > 0:
                    break
                if b[to] or not captures:
                    ms.append((frm, to, 0))
                if b[to] or not slide:
                    break
                to += d

    def pawn_moves(self, ms, frm, captures):
        b, us = self.sq, self.us()
        fwd = 16 * us

        def add(to):
            if to >> 4 in (0, 7):
                ms.extend((frm, to, p) for p in (QUEEN, ROOK, BISHOP, KNIGHT))
            else:
                ms.append((frm, to, 0))

        for to in (frm + fwd - 1, frm + fwd + 1):
            if not to & 0x88 and (b[to] * us < 0 or to == self.ep):
                add(to)
        if captures:
            return
        to = frm + fwd
        if b[to] == EMPTY:
            add(to)
            if (frm >> 4 == 1 and us > 0 or frm >> 4 == 6 and us < 0) and b[to + fwd] == EMPTY:
                ms.append((frm, to + fwd, 0))

    def castling(self, ms, frm):
        short, long_ = (WHITE_SHORT, WHITE_LONG) if self.white else (BLACK_SHORT, BLACK_LONG)
        b, them = self.sq, -self.us()
        if not self.castle & (short | long_) or self.attacked(frm, them):
            return
        if self.castle & short and not b[frm + 1] and not b[frm + 2] and not self.attacked(frm + 1, them):
            ms.append((frm, frm + 2, 0))
        if self.castle & long_ and not b[frm - 1] and not b[frm - 2] and not b[frm - 3] \
                and not self.attacked(frm - 1, them):
            ms.append((frm, frm - 2, 0))

    def legal(self, captures=False):
        """The legal moves (captures only when captures is set): the
        pseudo-legal ones that leave the mover's king unattacked."""
        out = []
        for m in self.pseudo(captures):
            self.make(m)
            if not self.attacked(self.kings[1 if self.white else 0], self.us()):
                out.append(m)
            self.unmake()
        return out

    def make(self, m):
        """Play m (NULL_MOVE passes)."""
        b = self.sq
        captured = EMPTY
        undo = (self.castle, self.ep, self.halfmove)
        old_ep, self.ep = self.ep, -1
        self.halfmove += 1
        if m != NULL_MOVE:
            frm, to, promo = m
            pc = b[frm]
            t = abs(pc)
            captured = b[to]
            if t == PAWN and to == old_ep:  # en passant: the pawn taken is beside to
                captured = b[to - 16 * self.us()]
                b[to - 16 * self.us()] = EMPTY
            elif t == KING and abs(to - frm) == 2:  # castling moves the rook too
                rf, rt = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
                b[rt], b[rf] = b[rf], EMPTY
            if t == PAWN and abs(to - frm) == 32:
                self.ep = (frm + to) // 2
            if t == PAWN or captured:
                self.halfmove = 0
            b[to], b[frm] = (promo * self.us() if promo else pc), EMPTY
            if t == KING:
                self.kings[0 if self.white else 1] = to
            self.castle &= CASTLE_MASK[frm] & CASTLE_MASK[to]
        self.hist.append((m, captured) + undo)
        if not self.white:
            self.fullmove += 1
        self.white = not self.white

    def unmake(self):
        """Take back the last move made."""
        m, captured, self.castle, self.ep, self.halfmove = self.hist.pop()
        self.white = not self.white
        if not self.white:
            self.fullmove -= 1
        if m == NULL_MOVE:
            return
        b = self.sq
        frm, to, promo = m
        pc = PAWN * self.us() if promo else b[to]
        b[frm], b[to] = pc, captured
        if abs(pc) == PAWN and to == self.ep:
            b[to] = EMPTY
            b[to - 16 * self.us()] = captured
        elif abs(pc) == KING and abs(to - frm) == 2:
            rf, rt = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
            b[rf], b[rt] = b[rt], EMPTY
        if abs(pc) == KING:
            self.kings[0 if self.white else 1] = frm

    def perft(self, depth):
        if depth == 0:
            return 1
        n = 0
        for m in self.legal():
            self.make(m)
            n += self.perft(depth - 1)
            self.unmake()
        return n

    def eval(self):
        """Material and a small piece-square bonus: pawns for advancing,
        knights and bishops for standing near the centre. Side to move's view."""
        score = 0
        for sq in range(128):
            pc = self.sq[sq]
            if sq & 0x88 or not pc:
                continue
            t, rank, file = abs(pc), sq >> 4, sq & 7
            if pc < 0:
                rank = 7 - rank
            v = PIECE_VALUE[t]
            if t == PAWN:
                v += 5 * (rank - 1)
            elif t in (KNIGHT, BISHOP):
                v += 5 * (3 - max(abs(2 * file - 7), abs(2 * rank - 7)) // 2)
            score += v if pc > 0 else -v
        return score if self.white else -score

    def has_pieces(self):
        us = self.us()
        return any(PAWN < p * us < KING for p in self.sq)


class Searcher:
    """Searches one position. tw is the trace writer, None when HORIZON_TRACE
    is unset: every call on it is behind `if tw:`, so that with tracing off
    no argument (a move's text) is built."""

    def __init__(self, pos, tw, max_nodes=0):
        self.pos, self.tw, self.max_nodes = pos, tw, max_nodes
        self.nodes = 0
        self.stopped = False  # the stop flag: set once, the search unwinds
        self.root_best = self.pv_move = NO_MOVE

    def stop(self):
        """Whether to stop before entering a node. Once set the flag stays
        set: every node returns at once writing nothing, and the driver
        writes one abort record for all the nodes left open."""
        if self.max_nodes and self.nodes >= self.max_nodes:
            self.stopped = True
        return self.stopped

    def enter(self, m, depth, alpha, beta, ply):
        """Count a node and write its enter record: one place for both, so
        the engine's count and the stream's cannot part."""
        self.nodes += 1
        tw = self.tw
        if tw:
            if ply == 0:
                tw.root(depth, alpha, beta, depth)
            else:
                tw.enter(uci(m), depth, alpha, beta)

    def leave(self, score):
        if self.tw:
            self.tw.leave(score)
        return score

    def ordered(self, ply, captures):
        """The legal moves (captures only in QS) in the order tried: the
        root's last best move, then captures by most valuable victim and
        least valuable attacker, then the rest as generated."""
        b = self.pos.sq

        def key(m):
            if ply == 0 and m == self.pv_move:
                return 1 << 20
            v = abs(b[m[1]])
            if not v and not m[2]:
                return 0
            return 10 * PIECE_VALUE[v] + PIECE_VALUE[m[2]] - abs(b[m[0]])

        return sorted(self.pos.legal(captures), key=key, reverse=True)  # sorted is stable

    def search(self, m, depth, alpha, beta, ply):
        """Fail-soft alpha-beta with null-move pruning. At depth <= 0 it hands
        the node to quiesce before entering it: the QS node is quiesce's to
        enter and leave, so it is one node, counted and written once."""
        if depth <= 0:
            return self.quiesce(m, 0, alpha, beta, ply)
        if self.stop():
            return 0
        self.enter(m, depth, alpha, beta, ply)
        pos, tw = self.pos, self.tw
        in_check = pos.in_check()

        # Null move: its node's move is 0000, with no M record (M records
        # name real moves).
        if ply > 0 and depth >= 3 and not in_check and beta < MATE_MIN and pos.has_pieces():
            pos.make(NULL_MOVE)
            score = -self.search(NULL_MOVE, depth - 3, -beta, -beta + 1, ply + 1)
            pos.unmake()
            if self.stopped:
                return 0
            if score >= beta:
                return self.leave(score)

        moves = self.ordered(ply, False)
        if not moves:
            return self.leave(-MATE + ply if in_check else 0)
        best = -INF
        for i, mv in enumerate(moves):
            if tw:
                tw.move(uci(mv), i)
            pos.make(mv)
            score = -self.search(mv, depth - 1, -beta, -max(alpha, best), ply + 1)
            pos.unmake()
            if self.stopped:
                return 0  # no leave record: the driver's abort closes the node
            if score > best:
                best = score
                if ply == 0:
                    self.root_best = mv
                if score >= beta:
                    break
        return self.leave(best)

    def quiesce(self, m, depth, alpha, beta, ply):
        """Captures only, standing pat on the static evaluation. depth is 0
        where the main search handed over and one less each QS ply below
        (Horizon's own convention; Horizon reads QS nodes off depth <= 0)."""
        if self.stop():
            return 0
        self.enter(m, depth, alpha, beta, ply)
        pos, tw = self.pos, self.tw
        stand = pos.eval()
        if tw:
            tw.stand_pat(stand)
        if stand >= beta or ply >= MAX_PLY - 1:
            return self.leave(stand)
        best = stand
        for i, mv in enumerate(self.ordered(ply, True)):
            if tw:
                tw.move(uci(mv), i)
            pos.make(mv)
            score = -self.quiesce(mv, depth - 1, -beta, -max(alpha, best), ply + 1)
            pos.unmake()
            if self.stopped:
                return 0
            if score > best:
                best = score
                if score >= beta:
                    break
        return self.leave(best)

    def run(self, pos_args, limits, depth, out):
        """Iterative deepening: one root per depth, an info line per finished
        iteration; returns the best move of the last one."""
        start = time.time()
        tw = self.tw
        if tw:
            tw.position(pos_args)
            tw.limits(limits)
        legal = self.pos.legal()
        best = legal[0] if legal else NO_MOVE  # what a search stopped at once plays
        d = 1
        while d <= depth and best != NO_MOVE:
            score = self.search(NULL_MOVE, d, -INF, INF, 0)
            if self.stopped:
                break
            best = self.pv_move = self.root_best
            out.write("info depth %d score %s nodes %d time %d pv %s\n"
                      % (d, uci_score(score), self.nodes, (time.time() - start) * 1000, uci(best)))
            out.flush()
            d += 1
        if tw:
            if self.stopped:
                # One abort closes every node the stop left open; nothing
                # follows it but the end record.
                tw.abort()
            tw.end(uci(best), self.nodes, int((time.time() - start) * 1000))
        return best


def uci_score(score):
    if score >= MATE_MIN:
        return "mate %d" % ((MATE - score + 1) // 2)
    if score <= -MATE_MIN:
        return "mate %d" % (-((MATE + score) // 2))
    return "cp %d" % score


def parse_position(args):
    """A UCI position command's arguments as a Position."""
    if not args or args[0] not in ("startpos", "fen"):
        raise FENError("position: want startpos or fen")
    rest = args[1:]
    fen = START_FEN
    if args[0] == "fen":
        i = rest.index("moves") if "moves" in rest else len(rest)
        fen, rest = " ".join(rest[:i]), rest[i:]
    pos = Position(fen)
    for s in rest[1:]:
        for m in pos.legal():
            if uci(m) == s:
                pos.make(m)
                break
        else:
            raise FENError("move %r is not legal here" % s)
    return pos


def main():
    # Open the stream once, at startup: None when HORIZON_TRACE is unset.
    tw = horizon_trace.from_env("Minnow (Python) 1.0", mate=(MATE, MATE_MIN), infinity=INF)
    pos, pos_args = Position(), "startpos"
    out = sys.stdout
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        if f[0] == "uci":
            out.write("id name Minnow (Python) 1.0\nid author the Horizon authors\nuciok\n")
        elif f[0] == "isready":
            out.write("readyok\n")
        elif f[0] == "position":
            try:
                pos, pos_args = parse_position(f[1:]), " ".join(f[1:])
            except FENError as e:
                out.write("info string %s\n" % e)
        elif f[0] == "go":
            depth, max_nodes = 5, 0
            for k, v in zip(f[1:], f[2:]):
                if k == "depth" and v.isdigit():
                    depth = min(max(int(v), 1), MAX_PLY // 2)
                elif k == "nodes" and v.isdigit():
                    max_nodes, depth = int(v), MAX_PLY // 2
            best = Searcher(pos, tw, max_nodes).run(pos_args, " ".join(f[1:]), depth, out)
            out.write("bestmove %s\n" % uci(best))
        elif f[0] == "perft" and len(f) > 1 and f[1].isdigit():
            out.write("perft %s %d\n" % (f[1], pos.perft(int(f[1]))))
        elif f[0] == "quit":
            break
        out.flush()
    if tw:
        tw.close()


if __name__ == "__main__":
    main()
