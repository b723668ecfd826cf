package foreign

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
)

// The three conventions docs/trace-protocol.md answers for engine authors
// ("Conventions: QS depth, the hand-off to QS, the stop flag"), each as the
// importer reads it.

// qsStream is a search of one ply whose capture exd5 and its reply Kd7
// are entered at depths a and b, with extra fields on both enter records.
func qsStream(a, b, extra string) string {
	return "HZT 1\nposition fen 4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1\nE - 1 -100 100 i=1\n" +
		"M e4d5 0\nE e4d5 " + a + " -100 100" + extra + "\nS -100\n" +
		"M e8d7 0\nE e8d7 " + b + " -100 100" + extra + "\nS 0\nL 0\nL 0\nL 0\nend best=e4d5 nodes=3\n"
}

// TestQSDepthConventions: a QS node is read off its depth (<= 0) or its
// k=qs, never off its QS ply; the QS ply is read off the nesting, whatever
// depth the engine wrote: depth 0 everywhere, Horizon's 0, -1, -2, a QS
// that starts below 0, and a QS ply written as a positive depth (full-width
// nodes unless each says k=qs). Depths below -127 are refused.
func TestQSDepthConventions(t *testing.T) {
	for _, tc := range []struct {
		name         string
		a, b, extra  string
		kind         engine.NodeKind // of both nodes
		qsPly0       int             // the first node's QS ply; the second's is one more, or -1 for both
		depthA       int
		wantErrorHas string
	}{
		{"zero everywhere", "0", "0", "", engine.KindQS, 0, 0, ""},
		{"minus the QS ply (preferred)", "0", "-1", "", engine.KindQS, 0, 0, ""},
		{"starting below 0", "-2", "-3", "", engine.KindQS, 0, -2, ""},
		{"QS ply as depth", "1", "2", "", engine.KindPV, -1, 1, ""},
		{"QS ply as depth with k=qs", "1", "2", " k=qs", engine.KindQS, 0, 1, ""},
		{"q= given", "0", "-1", " q=5", engine.KindQS, 5, 0, ""},
		{"below -127", "0", "-128", "", 0, 0, 0, "depth -128 out of range (-127 to 127)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, strings.NewReader(qsStream(tc.a, tc.b, tc.extra)), Options{})
			if tc.wantErrorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErrorHas) {
					t.Fatalf("error %v, want one saying %q", err, tc.wantErrorHas)
				}
				return
			}
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs %+v, error %v", runs, err)
			}
			var nodes []trace.Node
			st.Subtree(context.Background(), runs[0].RunID, 0, -1, func(n trace.Node) error { nodes = append(nodes, n); return nil })
			if len(nodes) != 4 {
				t.Fatalf("%d rows, want the run node and 3 nodes", len(nodes))
			}
			for i, n := range nodes[2:] {
				wantPly := tc.qsPly0
				if wantPly >= 0 && tc.extra != " q=5" {
					wantPly += i
				}
				if n.Kind != tc.kind || n.QSPly != wantPly {
					t.Errorf("node %d (depth %d): kind %s, QS ply %d; want %s, %d", n.ID, n.Depth, n.Kind, n.QSPly, tc.kind, wantPly)
				}
			}
			if nodes[2].Depth != tc.depthA {
				t.Errorf("depth %d stored as %d", tc.depthA, nodes[2].Depth)
			}
		})
	}
}

// TestHandOffWritesOneNode: when the main search hands depth <= 0 to QS,
// the node is written once. A second enter record for the same position
// (the main search's and then QS's) is refused: it has no move to name,
// and the parent's move again is no move of the position it reached.
func TestHandOffWritesOneNode(t *testing.T) {
	head := "HZT 1\nposition startpos\nE - 1 -100 100 i=1\nM e2e4 0\nE e2e4 0 -100 100\n"
	for _, tc := range []struct{ second, want string }{
		{"E - 0 -100 100", "a node with no move below node 2: only roots and nested searches (n=) have none"},
		{"E e2e4 0 -100 100", "illegal move e2e4"},
	} {
		st := mustCreate(t)
		_, err := Import(context.Background(), st, strings.NewReader(head+tc.second+"\nS 0\nL 0\nL 0\nL 0\n"), Options{})
		var se *StreamError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q after the node's own enter: error %v, want a stream error saying %q", tc.second, err, tc.want)
		}
	}
}

// TestAfterAbort: after its stop flag an engine writes one A record, which
// closes every open node, and then the search's end. A record of a node the
// A closed (L, S, M, X) fails the import naming the A record; a root entered
// after it (an engine that searches on past its stop flag) cannot be told
// from another iteration and is recorded into the truncated run, its nodes
// counted with the stream's: the docs tell engines to write none.
func TestAfterAbort(t *testing.T) {
	head := "HZT 1\nposition startpos\nlimits nodes 3\nE - 2 -100 100\nM e2e4 0\nE e2e4 1 -100 100\nM e7e5 0\nE e7e5 0 -100 100\nA\n"
	for _, tc := range []struct {
		name, tail string
		status     trace.Status
		nodes      int64
		errHas     string
	}{
		{"end", "end best=e2e4 nodes=3\n", trace.StatusTruncated, 3, ""},
		{"leave", "L 0\nend nodes=3\n", trace.StatusFailed, 3, "the A record at line 9 closed every node open then"},
		{"stand pat", "S 10\nend nodes=3\n", trace.StatusFailed, 3, "the A record at line 9 closed every node open then"},
		{"move", "M d2d4 1\nend nodes=3\n", trace.StatusFailed, 3, "the A record at line 9 closed every node open then"},
		{"extension", "X 1\nend nodes=3\n", trace.StatusFailed, 3, "the A record at line 9 closed every node open then"},
		{"a root searched on", "E - 2 -100 100\nL 0\nend nodes=4\n", trace.StatusTruncated, 4, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := mustCreate(t)
			runs, err := Import(context.Background(), st, strings.NewReader(head+tc.tail), Options{})
			if len(runs) != 1 {
				t.Fatalf("runs %+v (%v), want one", runs, err)
			}
			if tc.errHas == "" && err != nil || tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
				t.Fatalf("error %v, want %q", err, tc.errHas)
			}
			if r := runs[0]; r.Status != tc.status || r.Nodes != tc.nodes {
				t.Errorf("run %s with %d nodes, want %s with %d", r.Status, r.Nodes, tc.status, tc.nodes)
			}
		})
	}
}
