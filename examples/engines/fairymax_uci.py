"""fairymax_uci - run an xboard engine (Fairy-Max) as a UCI engine, so that
`horizon trace --engine` can drive it.

    python3 fairymax_uci.py ENGINE [ARGS...]

Debian's polyglot adapts the other way only (UCI engines to xboard GUIs):
started on Fairy-Max it sends "uci" and gives up ("uci_open(): Not a UCI
engine"). This adapter is the small part of that job Horizon needs. The
engine is started with this process's environment and file descriptors, so
HORIZON_TRACE (a path, or fd:3 as `horizon trace --engine` passes it) reaches
it unchanged.

What it translates:
  uci, isready (ping/pong), ucinewgame, quit;
  position startpos|fen FEN [moves ...]: new, force, and for a FEN the xboard
    edit command (Fairy-Max has no setboard). Edit cannot say castling rights,
    the e.p. square or the move counters: Fairy-Max takes a king or rook on
    its home square as unmoved, so a FEN whose rights differ is searched with
    Fairy-Max's rights (an info string says so; the trace's root FEN is the
    position the engine searched, written by the engine itself);
  go depth N: sd N with a clock of 1000 minutes (Fairy-Max stops starting
    iterations after about 12 minutes of it); go movetime T: a clock whose
    share for this move is T (Fairy-Max starts no iteration after T ms and
    finishes the one it is in); go wtime/btime/winc/binc/movestogo: level and
    time; go infinite and go nodes N: analyze mode, stopped by stop (or, for
    nodes, once a thinking line reports N nodes);
  stop: ends analyze mode with the first move of the last thinking line; a
    game-mode search (depth, movetime, clock) cannot be interrupted: Fairy-Max
    reads no input while it thinks, and its bestmove comes when it is done;
  thinking lines (ply score time nodes pv) become info lines; Fairy-Max's
    scores are its own units (a pawn is about 74), given as cp, and its PV
    moves lack the promotion piece, which the adapter adds (Fairy-Max's
    search promotes to a queen only) by replaying the PV on its own board.
"""

import ctypes
import os
import signal
import subprocess
import sys
import threading


def _die_with_parent():
    """In the engine's process: ask Linux for SIGTERM when the adapter dies,
    so an engine deep in a search that cannot be stopped does not outlive a
    killed adapter (elsewhere nothing is asked)."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Adapter:
    def __init__(self, argv):
        # close_fds=False: the engine inherits fd 3 (HORIZON_TRACE=fd:3).
        self.eng = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    close_fds=False, text=True, bufsize=1, preexec_fn=_die_with_parent)
        self.out_lock = threading.Lock()
        self.name = "Fairy-Max"
        self.ping = 0
        self.pending_ping = None
        self.searching = False
        self.analyzing = False
        self.node_limit = 0
        self.last_pv = []
        self.position = ["startpos"]
        self.features_done = threading.Event()
        self.reader = threading.Thread(target=self.read_engine, daemon=True)
        self.reader.start()
        self.send("xboard")
        self.send("protover 2")
        self.features_done.wait(10)

    def send(self, line):
        try:
            self.eng.stdin.write(line + "\n")
            self.eng.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def emit(self, line):
        with self.out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def read_engine(self):
        for line in self.eng.stdout:
            line = line.strip()
            f = line.split()
            if not f:
                continue
            if f[0] == "feature":
                if 'myname="' in line:
                    self.name = line.split('myname="', 1)[1].split('"', 1)[0]
                if "done=1" in f:
                    self.features_done.set()
            elif f[0] == "pong":
                if self.pending_ping is not None and f[1:2] == [str(self.pending_ping)]:
                    self.pending_ping = None
                    self.emit("readyok")
            elif f[0] == "move" and len(f) > 1:
                self.searching = False
                self.emit("bestmove " + f[1])
            elif f[0].lstrip("-").isdigit() and len(f) >= 4 and self.searching:
                self.thinking(f)
            elif f[0] in ("Illegal", "Error"):
                self.emit("info string fairymax: " + line)
        self.features_done.set()
        if self.searching:  # the engine died: answer anyway
            self.emit("bestmove 0000")
        os._exit(0)

    def thinking(self, f):
        try:
            ply, score, cs, nodes = int(f[0]), int(f[1]), int(f[2]), int(f[3])
        except ValueError:
            return
        sq = self.board()
        pv = [self.play(sq, m) for m in f[4:]]
        # Fairy-Max writes its root's mate as 100000 + k, a mate in k moves,
        # and -100000 - k, mated in k (WinBoard's convention): its root
        # score counts the mated side's turns after the root, for the
        # delayed-loss bonus of the root's own turn is not in it.
        if score > 90000:
            sc = "mate %d" % (score - 100000)
        elif score < -90000:
            sc = "mate -%d" % (-score - 100000)
        else:
            sc = "cp %d" % score
        if pv:
            self.last_pv = pv
        self.emit("info depth %d score %s time %d nodes %d pv %s" % (ply, sc, cs * 10, nodes, " ".join(pv)))
        if self.analyzing and self.node_limit and nodes >= self.node_limit:
            self.stop()

    def board(self):
        """The position searched: square -> piece letter (FEN case)."""
        f = self.position
        sq = {}
        if f[0] == "fen" and len(f) > 1:
            for r, row in enumerate(f[1].split("/")):
                c = 0
                for ch in row:
                    if ch.isdigit():
                        c += int(ch)
                    else:
                        sq["abcdefgh"[c % 8] + str(8 - r)] = ch
                        c += 1
        else:
            for c, ch in enumerate("rnbqkbnr"):
                f8 = "abcdefgh"[c]
                sq[f8 + "8"], sq[f8 + "7"], sq[f8 + "2"], sq[f8 + "1"] = ch, "p", "P", ch.upper()
        for m in (f[f.index("moves") + 1:] if "moves" in f else []):
            self.play(sq, m)
        return sq

    @staticmethod
    def play(sq, m):
        """Make the coordinate move m on sq; return it in UCI (with the
        promotion piece Fairy-Max's thinking lines leave out)."""
        a, b = m[:2], m[2:4]
        pc = sq.pop(a, None)
        if pc is None:
            return m
        if pc in "Pp" and b[1] in "18":
            if len(m) == 4:
                m += "q"
            pc = m[4].upper() if pc == "P" else m[4].lower()
        if pc in "Pp" and a[0] != b[0] and b not in sq:  # e.p.
            sq.pop(b[0] + a[1], None)
        if pc in "Kk" and abs(ord(a[0]) - ord(b[0])) == 2:  # castling: the rook too
            rook_from = ("h" if b[0] == "g" else "a") + a[1]
            rook_to = ("f" if b[0] == "g" else "d") + a[1]
            if rook_from in sq:
                sq[rook_to] = sq.pop(rook_from)
        sq[b] = pc
        return m

    def set_position(self):
        """Send the stored UCI position to the engine in force mode."""
        self.send("new")
        self.send("force")
        f = self.position
        moves = f[f.index("moves") + 1:] if "moves" in f else []
        if f[0] == "fen":
            fen = f[1:f.index("moves")] if "moves" in f else f[1:]
            self.edit(fen)
        for m in moves:
            self.send(m)

    def edit(self, fen):
        rows = fen[0].split("/")
        white, black = [], []
        for r, row in enumerate(rows):
            c = 0
            for ch in row:
                if ch.isdigit():
                    c += int(ch)
                    continue
                sq = "abcdefgh"[c] + str(8 - r)
                (white if ch.isupper() else black).append(ch.upper() + sq)
                c += 1
        self.send("edit")
        self.send("#")
        for p in white:
            self.send(p)
        self.send("c")
        for p in black:
            self.send(p)
        self.send(".")
        side = fen[1] if len(fen) > 1 else "w"
        if side == "b":
            self.send("black")
            self.send("force")
        natural = ""
        board = {p[1:]: p[0] for p in white}
        bboard = {p[1:]: p[0] for p in black}
        if board.get("e1") == "K":
            natural += ("K" if board.get("h1") == "R" else "") + ("Q" if board.get("a1") == "R" else "")
        if bboard.get("e8") == "K":
            natural += ("k" if bboard.get("h8") == "R" else "") + ("q" if bboard.get("a8") == "R" else "")
        rights = fen[2] if len(fen) > 2 else "-"
        ep = fen[3] if len(fen) > 3 else "-"
        if rights.replace("-", "") != natural or ep != "-":
            self.emit("info string fairymax: xboard's edit cannot set castling rights %s or e.p. square %s; "
                      "Fairy-Max searches with castling %s, no e.p." % (rights, ep, natural or "-"))

    def go(self, args):
        opts = {}
        i = 0
        while i < len(args):
            k = args[i]
            if k in ("infinite", "ponder"):
                opts[k] = True
                i += 1
            elif i + 1 < len(args):
                try:
                    opts[k] = int(args[i + 1])
                except ValueError:
                    pass
                i += 2
            else:
                i += 1
        self.set_position()
        self.last_pv = []
        self.node_limit = opts.get("nodes", 0)
        white = self.side_to_move() == "w"
        self.send("sd %d" % opts.get("depth", 60))
        self.send("post")
        self.searching = True
        if opts.get("infinite") or self.node_limit:
            self.analyzing = True
            self.send("analyze")
            return
        if "movetime" in opts:
            # Fairy-Max's share of a clock with no move count: 0.6 * time / 47.
            self.send("level 0 1000 0")
            self.send("time %d" % max(1, opts["movetime"] * 47 // 6))
        elif "wtime" in opts or "btime" in opts:
            ms = opts.get("wtime" if white else "btime", 60000)
            inc = opts.get("winc" if white else "binc", 0)
            self.send("level %d 1000 %d" % (opts.get("movestogo", 0), inc // 1000))
            self.send("time %d" % max(1, ms // 10))
        else:
            self.send("level 0 1000 0")
        self.send("go")

    def side_to_move(self):
        f = self.position
        n = len(f[f.index("moves") + 1:]) if "moves" in f else 0
        side = "w"
        if f[0] == "fen" and len(f) > 2 and f[2] == "b":
            side = "b"
        if n % 2:
            side = "b" if side == "w" else "w"
        return side

    def stop(self):
        if self.analyzing:
            self.analyzing = False
            self.searching = False
            self.send("exit")
            self.emit("bestmove " + (self.last_pv[0] if self.last_pv else "0000"))

    def run(self):
        for line in sys.stdin:
            f = line.split()
            if not f:
                continue
            cmd = f[0]
            if cmd == "uci":
                self.emit("id name " + self.name)
                self.emit("id author H.G. Muller (xboard engine, UCI through fairymax_uci.py)")
                self.emit("uciok")
            elif cmd == "isready":
                self.ping += 1
                self.pending_ping = self.ping
                self.send("ping %d" % self.ping)
            elif cmd == "position" and len(f) > 1:
                self.position = f[1:]
            elif cmd == "go":
                self.go(f[1:])
            elif cmd == "stop":
                self.stop()
            elif cmd == "quit":
                break
        self.stop()
        self.send("quit")
        try:
            self.eng.wait(10)
        except subprocess.TimeoutExpired:
            self.eng.kill()


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: fairymax_uci.py ENGINE [ARGS...]\n")
        sys.exit(2)
    Adapter(sys.argv[1:]).run()


if __name__ == "__main__":
    main()
