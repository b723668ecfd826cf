package qsbench

import (
	"context"
	"fmt"
	"sort"

	"github.com/horizonqs/horizon/engine"
)

// Source is a position whose search the collector watches.
type Source struct {
	Label string // "WAC.002", "stockfish_bench.fen:5"
	Pos   *engine.Position
}

// CollectConfig says how horizon positions are collected and sampled.
type CollectConfig struct {
	Options   engine.Options // the search whose QS roots are collected
	Depth     int            // its depth
	PerSource int            // candidates kept per source and class
	Quiet     int            // quiet positions wanted in the set
	Tactical  int            // tactical positions wanted in the set
	Jobs      int            // sources searched at once
}

// candidate is one horizon position seen under a source.
type candidate struct {
	rank     uint64 // sampling order: a hash of the position's key
	key      uint64
	class    string
	parent   string
	lastMove string
}

// Collect runs cfg's search on every source and gathers the positions at
// which it called QS (the QS roots), de-duplicated by position. The sample
// is deterministic: under each source, the candidates of each class are
// ranked by a hash of their Zobrist key (not by the order the search met
// them) and the first cfg.PerSource kept; then the sources take turns, in
// their order, giving their next candidate of a class until the class has
// its count or no source has one left. done(n) reports sources finished
// (from any worker, as Parallel's does).
func Collect(ctx context.Context, sources []Source, cfg CollectConfig, done func(int)) ([]*Position, error) {
	if cfg.Depth < 1 || cfg.PerSource < 1 || cfg.Jobs < 1 {
		return nil, fmt.Errorf("collect: depth, per-source count and jobs must be positive")
	}
	per := make([][]candidate, len(sources))
	err := Parallel(ctx, len(sources), cfg.Jobs, func() func(int) error {
		s := engine.NewSearcher(cfg.Options)
		return func(i int) error {
			pos := sources[i].Pos.Copy()
			c := &collector{pos: pos, per: cfg.PerSource, seen: map[uint64]bool{}}
			s.Search(ctx, pos, engine.Limits{Depth: cfg.Depth}, c)
			per[i] = append(c.lists[0], c.lists[1]...)
			return nil
		}
	}, done)
	if err != nil {
		return nil, err
	}

	var set []*Position
	taken := map[uint64]bool{}
	for _, want := range []struct {
		class string
		n     int
	}{{Tactical, cfg.Tactical}, {Quiet, cfg.Quiet}} {
		queues := make([][]candidate, len(sources))
		for i, cs := range per {
			for _, c := range cs {
				if c.class == want.class {
					queues[i] = append(queues[i], c)
				}
			}
		}
		got := 0
		for got < want.n {
			progress := false
			for i := range queues {
				for got < want.n && len(queues[i]) > 0 {
					c := queues[i][0]
					queues[i] = queues[i][1:]
					if taken[c.key] {
						continue // reached from an earlier source too
					}
					taken[c.key] = true
					p, err := newPosition(c.parent, c.lastMove)
					if err != nil {
						return nil, fmt.Errorf("collect: %s: %v (a bug: the search made this move)", sources[i].Label, err)
					}
					p.Source, p.Class = sources[i].Label, c.class
					set = append(set, p)
					got++
					progress = true
					break
				}
			}
			if !progress {
				return nil, fmt.Errorf("collect: only %d %s positions found, %d wanted (raise the per-source count or the depth)",
					got, want.class, want.n)
			}
		}
	}
	// Interleave the classes in the file by rank, so that the first lines
	// (a quick run with --limit) are a fair sample too.
	sort.SliceStable(set, func(a, b int) bool { return rankOf(set[a]) < rankOf(set[b]) })
	for i, p := range set {
		p.ID = fmt.Sprintf("qsb.%04d", i+1)
	}
	return set, nil
}

func rankOf(p *Position) uint64 { return mix(p.pos.Key()) }

// mix is SplitMix64's finaliser: it turns Zobrist keys into a sampling
// order that does not follow any feature of the position.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Classify tells whether QS has something to win at p: Tactical when the
// side to move is in check, can promote, or has a capture that wins
// material by SEE; Quiet otherwise.
func Classify(p *engine.Position) string {
	if p.InCheck() {
		return Tactical
	}
	var l engine.MoveList
	p.Generate(engine.GenCaptures, &l)
	for _, m := range l.Slice() {
		if m.Promotion() != engine.NoPieceType || p.SEE(m) > 0 {
			return Tactical
		}
	}
	return Quiet
}

// collector is the tracer that watches a search for QS roots. The search
// calls Enter with its position already at the node, so the collector
// reads the position it shares with the search (never changing it).
type collector struct {
	pos   *engine.Position
	per   int
	seen  map[uint64]bool
	lists [2][]candidate // tactical, quiet; each sorted by rank, at most per long
	moves engine.MoveList
}

func (c *collector) Enter(e engine.EnterInfo) {
	if e.Kind != engine.KindQS || e.QSPly != 0 {
		return
	}
	key := c.pos.Key()
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	class := Classify(c.pos)
	li := 0
	if class == Quiet {
		li = 1
	}
	l := c.lists[li]
	r := mix(key)
	if len(l) == c.per && r >= l[len(l)-1].rank {
		return
	}
	if c.pos.Generate(engine.GenAll, &c.moves); c.moves.N == 0 {
		return // mate or stalemate: nothing for QS to do or get wrong
	}
	q := c.pos.Copy()
	lm := q.LastMove()
	q.UnmakeMove()
	cand := candidate{rank: r, key: key, class: class, parent: q.FEN(), lastMove: lm.UCI()}
	i := sort.Search(len(l), func(i int) bool { return l[i].rank > r })
	l = append(l, candidate{})
	copy(l[i+1:], l[i:])
	l[i] = cand
	if len(l) > c.per {
		l = l[:c.per]
	}
	c.lists[li] = l
}

func (c *collector) StandPat(engine.StandPatInfo)   {}
func (c *collector) Move(engine.MoveInfo)           {}
func (c *collector) Extension(engine.ExtensionInfo) {}
func (c *collector) Leave(engine.LeaveInfo)         {}
