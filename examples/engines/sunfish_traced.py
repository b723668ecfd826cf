"""sunfish_traced - run Sunfish as a UCI engine that writes the Horizon trace
protocol, without editing sunfish.py: Searcher.bound is wrapped at run time.

Every call of Searcher.bound is one node (Sunfish counts them in
Searcher.nodes): the wrapper enters it before the call and leaves it with
the call's result. The move that led to a node is the one Position.move (or
the null move of Position.rotate(nullmove=True)) made just before the call:
Sunfish always builds the child position in the call's argument list.
Sunfish is a king-capture engine (it searches moves that leave its own king
attacked and refutes them by taking the king), so the stream says
"moves pseudo". Its quiescence search is bound's depth == 0 case: depths are
written as Sunfish clamps them (max(depth, 0)), so Horizon's QS nodes are
exactly those.

Sunfish's score scale: MATE_UPPER ends its MTD bracket (lower, upper = 1 -
MATE_UPPER, MATE_UPPER) and is its king-capture token (a node whose king is
gone scores -MATE_UPPER), a win or loss by rule, so the stream declares it
as the engine's infinity. Its mate scores (MATE_LOWER and above) carry the
depth left when the mate was found, in steps of EVAL_ROUGHNESS, not a
distance in plies or turns, and Sunfish itself reports them as centipawns:
the stream declares no mate value, and they print as numbers.

SUNFISH_DIR names the folder holding sunfish.py and sunfish_ui/; without
HORIZON_TRACE this runs Sunfish unchanged.
"""

import builtins
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.environ.get("SUNFISH_DIR", "."))

import horizon_trace  # noqa: E402
import sunfish  # noqa: E402
import sunfish_ui.uci as sunfish_uci  # noqa: E402


def _fen(pos, white):
    """The FEN of a Sunfish position (white: White is to move)."""
    wpos = pos if white else pos.rotate()
    rows = []
    for r in range(8):
        row, empty = "", 0
        for c in wpos.board[21 + 10 * r: 29 + 10 * r]:
            if c == ".":
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            # White's pieces are upper case in White's view.
            row += c
        rows.append(row + (str(empty) if empty else ""))
    castle = ("K" if wpos.wc[1] else "") + ("Q" if wpos.wc[0] else "") + \
             ("k" if wpos.bc[0] else "") + ("q" if wpos.bc[1] else "")
    ep = "-"
    if pos.ep:
        ep = sunfish.render(pos.ep if white else 119 - pos.ep)
    return "%s %s %s %s 0 1" % ("/".join(rows), "w" if white else "b", castle or "-", ep)


def _uci(move, white):
    i, j = (move.i, move.j) if white else (119 - move.i, 119 - move.j)
    return sunfish.render(i) + sunfish.render(j) + move.prom.lower()


def install(tw):
    """Wrap Sunfish's search so that it writes its tree to tw."""
    pending = [None, None]  # the last child position built, and its move (None: null move)
    colors = []             # per open node: White to move?
    state = {"root_white": True}

    orig_move, orig_rotate = sunfish.Position.move, sunfish.Position.rotate

    def move(self, m):
        child = orig_move(self, m)
        pending[0], pending[1] = child, m
        return child

    def rotate(self, nullmove=False):
        r = orig_rotate(self, nullmove)
        if nullmove:
            pending[0], pending[1] = r, None
        return r

    orig_bound = sunfish.Searcher.bound

    def bound(self, pos, gamma, depth, root=False):
        d = depth if depth > 0 else 0
        if not colors:
            tw.root(d, gamma - 1, gamma, d)
            white = state["root_white"]
        else:
            if pending[0] is not pos:
                raise RuntimeError("sunfish_traced: cannot tell which move led to this bound() call")
            parent_white = colors[-1]
            tw.enter("0000" if pending[1] is None else _uci(pending[1], parent_white), d, gamma - 1, gamma)
            white = not parent_white
        pending[0] = None
        colors.append(white)
        r = orig_bound(self, pos, gamma, depth, root)
        colors.pop()
        tw.leave(r)
        return r

    orig_go_loop = sunfish_uci.go_loop

    # go_loop prints the bestmove itself; a print in the UI module's
    # namespace (ahead of the builtin) notes it for the end record.
    def ui_print(*args, **kwargs):
        if args and args[0] == "bestmove" and len(args) > 1:
            state["best"] = str(args[1])
        builtins.print(*args, **kwargs)

    def go_loop(searcher, hist, *args, **kwargs):
        white = len(hist) % 2 == 1
        state["root_white"], state["best"] = white, None
        del colors[:]
        tw.position("fen " + _fen(hist[-1], white))
        start = time.perf_counter()
        try:
            return orig_go_loop(searcher, hist, *args, **kwargs)
        finally:
            if colors:  # Stop unwound the search
                tw.abort()
                del colors[:]
            tw.end(state["best"], searcher.nodes, round(1000 * (time.perf_counter() - start)))

    sunfish_uci.print = ui_print

    sunfish.Position.move = move
    sunfish.Position.rotate = rotate
    sunfish.Searcher.bound = bound
    sunfish_uci.go_loop = go_loop


def main():
    tw = horizon_trace.from_env(sunfish.version, fail_hard=False, pseudo_legal=True, infinity=sunfish.MATE_UPPER)
    if tw is not None:
        install(tw)
    sunfish.main()


if __name__ == "__main__":
    main()
