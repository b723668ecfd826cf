package engine

import (
	"context"
	"testing"
)

// TestLabels: every kind, bound and cause has a name, a short label, a long
// label and a meaning (CauseNone has empty labels: nothing to show).
func TestLabels(t *testing.T) {
	for k := NodeKind(0); k < numKinds; k++ {
		if k.String() == "?" || k.Label() == "?" || k.LongLabel() == "?" || k.Meaning() == "?" {
			t.Errorf("kind %d: %q %q %q %q", k, k, k.Label(), k.LongLabel(), k.Meaning())
		}
	}
	for b := BoundNone; b <= BoundExact; b++ {
		if b.Label() == "?" && b != BoundNone || b.LongLabel() == "?" || b.Meaning() == "?" {
			t.Errorf("bound %d: %q %q %q", b, b.Label(), b.LongLabel(), b.Meaning())
		}
	}
	for c := Cause(0); c < numCauses; c++ {
		if c.String() == "?" || c.Label() == "?" || c.LongLabel() == "?" || c.Meaning() == "?" {
			t.Errorf("cause %d: %q %q %q %q", c, c, c.Label(), c.LongLabel(), c.Meaning())
		}
		if c != CauseNone && (c.Label() == "" || c.LongLabel() == "") {
			t.Errorf("cause %s has an empty label", c)
		}
	}
}

// levelTracer records what QS nodes report.
type levelTracer struct {
	nopTracer
	qs, levels, maxLevel int
	qsPlyOK              bool
}

func (l *levelTracer) Enter(e EnterInfo) {
	if e.Kind == KindQS {
		l.qs++
		if e.QSLevel >= 0 {
			l.levels++
			l.maxLevel = max(l.maxLevel, e.QSLevel)
		}
		if e.QSPly != -e.Depth {
			l.qsPlyOK = false
		}
	} else if e.QSPly != -1 || e.QSLevel != -1 {
		l.qsPlyOK = false
	}
}

// TestQSFigures: none has no QS nodes at all; only the threshold QS gives
// its nodes a level; every QS node's QS ply is its distance from the QS
// root (minus its depth), and full-width nodes have neither.
func TestQSFigures(t *testing.T) {
	for _, v := range VariantNames() {
		o := mustVariant(v)
		o.TT = false
		tr := &levelTracer{qsPlyOK: true}
		r := NewSearcher(o).Search(context.Background(), MustParseFEN(kiwipete), Limits{Depth: 3}, tr)
		switch {
		case v == "none" && (tr.qs != 0 || r.Stats.QSNodes != 0 || r.Stats.MaxQSPly != 0):
			t.Errorf("none: %d QS nodes traced, %d counted: none has no QS", tr.qs, r.Stats.QSNodes)
		case v != "none" && (tr.qs == 0 || int64(tr.qs) != r.Stats.QSNodes):
			t.Errorf("%s: %d QS nodes traced, %d counted", v, tr.qs, r.Stats.QSNodes)
		case o.UsesLevels() != (tr.levels > 0):
			t.Errorf("%s: %d QS nodes with a level, uses levels %v", v, tr.levels, o.UsesLevels())
		case o.UsesLevels() && (tr.levels != tr.qs || tr.maxLevel > o.QSLevels):
			t.Errorf("%s: %d of %d QS nodes have a level, the largest %d", v, tr.levels, tr.qs, tr.maxLevel)
		case !tr.qsPlyOK:
			t.Errorf("%s: a node's QS ply or level disagrees with its kind and depth", v)
		}
	}
}
