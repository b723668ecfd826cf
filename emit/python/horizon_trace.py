"""horizon_trace - write the Horizon trace protocol (docs/trace-protocol.md)
from a Python chess engine, so that `horizon trace --engine` and `horizon
import` can record its search tree.

    import horizon_trace
    tw = horizon_trace.from_env("MyEngine 1.0")   # None when HORIZON_TRACE is unset
    if tw:
        tw.position("startpos moves e2e4")
        tw.root(depth, alpha, beta, iteration)
        tw.enter("e7e5", depth - 1, -beta, -alpha)   # every other node
        tw.leave(score)                              # every return of a node
        tw.end("e7e5", nodes)

An engine may declare its score scale, so that Horizon prints its mates as
#N and its window's ends as infinity: from_env(..., mate=(VALUE, MIN),
infinity=VALUE), and mate_turns=True when its mate distance counts the mated
side's turns rather than plies (docs/trace-protocol.md, "mate", "infinity").

Three conventions (docs/trace-protocol.md, "Conventions"): a QS node's
depth is 0 where QS begins and one less each QS ply below, as Horizon's own
engine writes it (a depth <= 0 reads as QS; a QS ply written as a positive
depth reads as full-width nodes unless enter(..., kind="qs")). When the main
search hands depth <= 0 to QS, the node is entered once, by whichever
function counts it. After the stop flag, abort() once the search has
unwound, then end(), and nothing between: no leave() of the nodes the abort
closed, no node of a search that carries on.

Scores, windows, evals, depths and counts are integers (an integral float
passes; 0.7 raises ValueError rather than be written as 0): an engine that
scores in pawns scales them to centipawns.

HORIZON_TRACE is a file path, or "fd:N" for a file descriptor the parent
process left open (horizon trace --engine passes a pipe that way). The
stream is buffered (64 KiB, so a live reader follows); end() flushes it. Standard library only.
"""

import io
import operator
import os

# The newest protocol version written; a stream says the oldest that holds
# its records: 1, 2 when it declares a score scale, 4 when it declares
# nested searches (nested=True; version 3's label record is not written here).
VERSION = 4
ENV_VAR = "HORIZON_TRACE"


class Writer:
    """One trace stream. Not thread-safe: trace one search thread."""

    def __init__(self, out, engine="", fail_hard=False, pseudo_legal=False,
                 mate=None, mate_turns=False, infinity=None, nested=False):
        """out: a text stream (the caller keeps ownership). mate is the
        pair (score of a mate at distance 0, smallest mate score), infinity
        the engine's window end for no bound; None declares nothing.
        nested: the engine writes nested searches (nested()), which makes
        the stream version 4."""
        self._out = out
        self._w = out.write
        self._w("HZT %d\n" % (4 if nested else 2 if mate or infinity else 1))
        if engine:
            self._w("engine %s\n" % _one_line(engine))
        self._w("scores %s\n" % ("hard" if fail_hard else "soft"))
        if pseudo_legal:
            self._w("moves pseudo\n")
        if mate:
            self._w("mate %d %d %s\n" % (_int(mate[0]), _int(mate[1]), "turns" if mate_turns else "plies"))
        if infinity:
            self._w("infinity %d\n" % _int(infinity))

    def position(self, uci_args):
        """Start a search: the arguments of a UCI position command."""
        self._w("position %s\n" % _one_line(uci_args))

    def limits(self, text):
        self._w("limits %s\n" % _one_line(text))

    def root(self, depth, alpha, beta, iteration=None):
        """Enter a root node (one search of the root position)."""
        if iteration is None:
            self._w("E - %d %d %d\n" % (_int(depth), _int(alpha), _int(beta)))
        else:
            self._w("E - %d %d %d i=%d\n" % (_int(depth), _int(alpha), _int(beta), _int(iteration)))

    def enter(self, move, depth, alpha, beta, kind=None):
        """Enter a node reached by move (UCI, "0000" for a null move)."""
        if kind is None:
            self._w("E %s %d %d %d\n" % (move, _int(depth), _int(alpha), _int(beta)))
        else:
            self._w("E %s %d %d %d k=%s\n" % (move, _int(depth), _int(alpha), _int(beta), kind))

    def nested(self, reason, depth, alpha, beta, excluded=None, counted=True):
        """Enter the root of a nested search of the current node's own
        position (reason: "iid", "singular", "razor", "probcut", "verify"
        or a word of the engine's own), its window seen from the same side
        as the node's (not negated); leave() closes it. excluded: the move
        a singular test leaves out; counted: whether the engine counts the
        root as a node (False for a loop over the node's moves)."""
        line = "E - %d %d %d n=%s" % (_int(depth), _int(alpha), _int(beta), reason)
        if excluded:
            line += " e=" + excluded
        if not counted:
            line += " u=1"
        self._w(line + "\n")

    def stand_pat(self, value):
        self._w("S %d\n" % _int(value))

    def move(self, move, index):
        self._w("M %s %d\n" % (move, _int(index)))

    def extension(self, plies):
        self._w("X %d\n" % _int(plies))

    def leave(self, score, bound=None, cause=None, best=None):
        """Leave the current node with its score (and what else is known)."""
        if bound is None and cause is None and best is None:
            self._w("L %d\n" % _int(score))
            return
        parts = ["L %d" % _int(score)]
        if bound:
            parts.append("b=" + bound)
        if cause:
            parts.append("c=" + cause)
        if best:
            parts.append("m=" + best)
        self._w(" ".join(parts) + "\n")

    def abort(self):
        """The search unwound every open node (stopped by time, an exception).
        Call it once, after the unwinding, and then only end()."""
        self._w("A\n")

    def end(self, best=None, nodes=None, time_ms=None):
        """End the search, with the engine's own node count and its time in
        milliseconds (a float's fraction is dropped), and flush."""
        line = "end"
        if best:
            line += " best=" + best
        if nodes is not None:
            line += " nodes=%d" % _int(nodes)
        if time_ms is not None:
            line += " time=%d" % time_ms
        self._w(line + "\n")
        self._out.flush()

    def flush(self):
        self._out.flush()

    def close(self):
        self._out.close()


def _int(v):
    """v as the protocol's integer. "%d" truncates a float without a word:
    an engine scoring in pawns (0.7) wrote 0, its window [-0.5, 0.5] as
    [0, 0]. An integral float passes; any other value is refused."""
    if type(v) is int:
        return v
    if isinstance(v, float):
        if v.is_integer():
            return int(v)
    else:
        try:
            return operator.index(v)  # numpy's integers, bool
        except TypeError:
            pass
    raise ValueError("horizon_trace: %r is not an integer: scores, windows, evals and depths are "
                     "integers in the engine's own units (centipawns: scale pawns by 100)" % (v,))


def _one_line(s):
    return str(s).replace("\n", " ").replace("\r", " ")


def open_dest(dest, engine="", fail_hard=False, pseudo_legal=False, **scale):
    """A Writer on dest: a path or "fd:N"; scale: Writer's mate, mate_turns,
    infinity and nested."""
    if dest.startswith("fd:"):
        raw = os.fdopen(int(dest[3:]), "wb", buffering=0, closefd=True)
    else:
        raw = open(dest, "wb", buffering=0)
    out = io.TextIOWrapper(io.BufferedWriter(raw, buffer_size=1 << 16), encoding="ascii",
                           errors="replace", newline="\n", write_through=False)
    return Writer(out, engine, fail_hard, pseudo_legal, **scale)


def from_env(engine="", fail_hard=False, pseudo_legal=False, **scale):
    """A Writer on the destination HORIZON_TRACE names, or None when unset;
    scale: Writer's mate, mate_turns, infinity and nested."""
    dest = os.environ.get(ENV_VAR, "")
    if not dest:
        return None
    return open_dest(dest, engine, fail_hard, pseudo_legal, **scale)
