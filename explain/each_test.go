package explain

import (
	"context"
	"testing"

	"github.com/horizonqs/horizon/engine"
	"github.com/horizonqs/horizon/trace"
	"github.com/horizonqs/horizon/trace/tracetest"
)

// TestEachCountsAsExplain: the nodes Each passes, each counted under the
// first own reason met below the top, are Explain's causes, reason for
// reason (the HTML page counts its drawn nodes' mixes so).
func TestEachCountsAsExplain(t *testing.T) {
	st, _ := tracetest.CreateTrace(t)
	ctx := context.Background()
	run := recordQS(t, st, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", options(t, "mvv-lva"))
	r, err := st.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	top, err := st.Node(ctx, run, 0)
	if err != nil {
		t.Fatal(err)
	}
	var counts [engine.NumReasons]int64
	type open struct {
		end    int64
		reason engine.Reason // the first met from the top down to it
	}
	path := []open{{top.End(), engine.ReasonNecessary}}
	err = Each(ctx, st, r, top, func(n trace.Node, own engine.Reason) error {
		for len(path) > 1 && n.ID >= path[len(path)-1].end {
			path = path[:len(path)-1]
		}
		reason := path[len(path)-1].reason
		if reason == engine.ReasonNecessary {
			reason = own
		}
		path = append(path, open{n.End(), reason})
		counts[reason]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res := explainNode(t, st, run, 0)
	var seen int
	for _, c := range res.Causes {
		if counts[c.Reason] != c.Nodes {
			t.Errorf("%s: Each counts %d nodes, Explain %d", c.Reason, counts[c.Reason], c.Nodes)
		}
		seen++
	}
	if seen < 2 {
		t.Errorf("Explain finds %d causes (the test needs two or more): %+v", seen, res.Causes)
	}
}
