package main

import (
	"context"
	"errors"

	"github.com/horizonqs/horizon/uci"
)

func runUCI(e *env, args []string) error {
	fs := newFlags(e, "uci", "",
		`Speak the UCI protocol on standard input and output, so that chess GUIs, match
runners (cutechess-cli, fastchess) and adapters (polyglot) can use Horizon's
engine. Options (shown by the "uci" command): QSVariant picks the QS preset,
and one option per engine switch overrides it. A switch's default is "preset"
(a spin's is -1), the chosen preset's own value, so a GUI that sends every
option at its default runs the preset exactly; true, false or a number
overrides it. A switch set while a switch it needs is off (SEEPrune true with
QSVariant none, Hash with TT false) is kept for when that is on: an "info
string" says it has no effect for now, and searches go without it. Hash sizes
the transposition table, and Trace names a trace file into which every "go" is
recorded as a run (with the position and moves that led to it); TraceMaxNodes
bounds the recording, not the search, which goes on unrecorded past it, so a
traced game plays as an untraced one (the run keeps the first N nodes and the
roots of the iterations begun after them; its filter says so, stored as "first
N nodes"). "go searchmoves" restricts the root to the moves listed (illegal
ones are skipped). "go perft N" counts the legal move tree as Stockfish does
("e2e4: 20" lines, then "Nodes searched: N"). Bad input is answered with "info
string" and ignored. The end of the input stops a running search, as in
Stockfish (its bestmove is sent and its trace completed), so a script keeps
its input open until the bestmove.`,
		`(printf 'position startpos moves e2e4\ngo depth 6\n'; sleep 1) | horizon uci`,
		`cutechess-cli -engine cmd="horizon uci" option.QSVariant=threshold option.Trace=games.trace ...`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q: uci takes no arguments (options are set with setoption)", fs.Arg(0))
	}
	err := uci.Run(e.ctx, e.stdin, e.stdout, uci.Config{Version: version()})
	if errors.Is(err, context.Canceled) {
		return nil // interrupted by the user: the search and its trace were stopped cleanly
	}
	return err
}
