#!/usr/bin/env python3
"""How an engine records a nested search (docs/guide-python.md): a search
of a node's own position from inside it. This writes a depth-2 search of the
start position whose root makes an internal iterative deepening (IID)
search, which the engine counts as a node (it calls its search function),
and a singular test of e2e4, a loop over the root's other moves that it
does not count (counted=False). It plays no chess: its moves and scores are
fixed, as a real engine's would come from its search. With HORIZON_TRACE
set it writes the trace there; foreign's TestNestedPython imports it.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "emit", "python"))
import horizon_trace  # noqa: E402

# nested=True: the stream says "HZT 4", the version with nested searches.
tw = horizon_trace.from_env("Nested example 1.0", nested=True)
nodes = 0


def enter(move, depth, alpha, beta):
    global nodes
    nodes += 1
    if tw:
        tw.enter(move, depth, alpha, beta)


def leaf(move, alpha, beta, score):
    """A QS node that stands pat on score."""
    if tw:
        tw.move(move, 0)
    enter(move, 0, alpha, beta)
    if tw:
        tw.stand_pat(score)
        tw.leave(score)
    return score


def iid(depth, alpha, beta):
    """IID: the engine searches its own position at a lower depth for a
    move to try first; the nested search's window is the node's own, not
    negated, and leave() closes it."""
    global nodes
    nodes += 1
    if tw:
        tw.nested("iid", depth - 1, alpha, beta)
    v = -leaf("e2e4", -beta, -alpha, -20)
    if tw:
        tw.leave(v)
    return v


def singular(depth, sb):
    """A singular test of e2e4: the other moves at a lowered window; a loop
    over them, no search call, so no node the engine counts."""
    if tw:
        tw.nested("singular", depth - 1, sb - 1, sb, excluded="e2e4", counted=False)
    v = -leaf("d2d4", -sb, -sb + 1, 5)
    if tw:
        tw.leave(v)
    return v


def main():
    global nodes
    if tw:
        tw.position("startpos")
        tw.root(2, -100, 100, iteration=2)
    nodes += 1
    iid(2, -100, 100)
    singular(2, 10)
    if tw:
        tw.move("e2e4", 0)
    enter("e2e4", 1, -100, 100)
    v = -leaf("e7e5", -100, 100, 10)
    if tw:
        tw.leave(v)
        tw.leave(-v)
        tw.end(best="e2e4", nodes=nodes)
        tw.close()
    print("nodes %d" % nodes)


if __name__ == "__main__":
    main()
