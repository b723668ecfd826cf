package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/horizonqs/horizon/engine"
)

// jsonGraph is the graph as JSON. Times and versions are left out so that
// the output, like the DOT text, depends only on the trace's tree.
type jsonGraph struct {
	Run     jsonRun  `json:"run"`
	Top     int64    `json:"top"`
	TopPath []string `json:"top_path"`
	// TopVisits is the visit of each move of TopPath, as the HTML page's,
	// and TopSearches its searches under its parent.
	TopVisits   []int `json:"top_visits"`
	TopSearches []int `json:"top_searches"`
	// TopPlace is the top node's place as Horizon prints one, which
	// --path reads back ("iteration 2·1: (root)"); null for the run node.
	TopPlace *string `json:"top_place"`
	MaxNodes int     `json:"max_nodes"`
	Depth    *int    `json:"depth"` // null: no limit
	QSOnly   bool    `json:"qs_only"`
	// QSRoots, QSNodes and FullWidth are Graph's: null unless QSOnly.
	QSRoots   *int64        `json:"qs_roots"`
	QSNodes   *int64        `json:"qs_nodes"`
	FullWidth *int64        `json:"full_width_left_out"`
	Nodes     []jsonNode    `json:"nodes"`
	Summaries []jsonSummary `json:"summaries"`
}

type jsonRun struct {
	ID      int64   `json:"id"`
	FEN     string  `json:"fen"`
	EPDID   *string `json:"epd_id"` // the id of the EPD record searched; null when none (trace.Run.EPDID)
	Variant string  `json:"variant"`
	Status  string  `json:"status"`
	Depth   int     `json:"depth"`
	Nodes   int64   `json:"nodes"`
}

type jsonNode struct {
	ID int64 `json:"id"`
	// Parent is the parent's id; the top node's parent is not among the
	// nodes (unless the top is the run node, which has none: null).
	Parent  *int64  `json:"parent"`
	MoveSAN *string `json:"move_san"` // null for the run node and iteration roots, as move in the SQL view
	MoveUCI *string `json:"move_uci"`
	// Order and Repeat are Node's; null for the top node and the QS roots
	// hung from it by --qs-only, which have no place among siblings.
	Order  *int `json:"order"`
	Repeat *int `json:"repeat"`
	// Via is Node's: the full-width moves to a QS root hung from the top
	// by --qs-only; null for every other node.
	Via       []string `json:"via"`
	PV        bool     `json:"pv"`
	Kind      string   `json:"kind"`
	Ply       int      `json:"ply"`
	Iteration int      `json:"iteration"`
	Depth     int      `json:"depth"`
	QSPly     *int     `json:"qs_ply"`   // distance from the QS root; null outside QS, as in the trace's SQL
	QSLevel   *int     `json:"qs_level"` // null where the engine has none, as in the trace's SQL
	InCheck   bool     `json:"in_check"`
	Alpha     int      `json:"alpha"`
	Beta      int      `json:"beta"`
	StandPat  *int     `json:"stand_pat"`
	Score     int      `json:"score"`
	Bound     string   `json:"bound"`
	Cutoff    string   `json:"cutoff"`    // the names of the trace's SQL view nodes and of diff --json
	CutIndex  *int     `json:"cut_index"` // null where no move failed high (the SQL view says -1)
	// CutIndexAtLeast: cut_index is a lower bound (trace.Node.CutIndexAtLeast).
	CutIndexAtLeast bool    `json:"cut_index_at_least"`
	Best            *string `json:"best"`      // UCI; null when none
	Generated       *int    `json:"generated"` // null where another engine's stream left it out (trace.Run.GeneratedRecorded)
	// GeneratedAtLeast: generated is a lower bound (trace.Node.GeneratedAtLeast).
	GeneratedAtLeast bool `json:"generated_at_least"`
	Searched         int  `json:"searched"`
	// SearchedAtLeast: searched is a lower bound (trace.Node.SearchedAtLeast).
	SearchedAtLeast bool  `json:"searched_at_least"`
	Extension       int   `json:"extension"`
	SubtreeSize     int64 `json:"subtree_size"`
	Incomplete      bool  `json:"incomplete"`
	Summary         *int  `json:"summary"` // index in summaries; null when every child is shown
}

type jsonSummary struct {
	Parent     int64   `json:"parent"` // id of the shown node
	Children   int     `json:"children"`
	Nodes      int64   `json:"nodes"`
	Rows       int64   `json:"rows"`
	QSRows     int64   `json:"qs_rows"`
	QSShare    float64 `json:"qs_share"`
	MaxQSPly   *int    `json:"max_qs_ply"` // null: no QS node
	Unrecorded int64   `json:"unrecorded"`
	DepthLimit bool    `json:"depth_limit"`
	QSTrees    bool    `json:"qs_trees"`
}

// WriteJSON writes the graph as one JSON object (snake_case keys), as
// json.Encoder indents it. The nodes and summaries are encoded one at a
// time into the object's text: encoding a graph of 188,000 nodes whole
// made 140 MB twice over (encoded, then indented) and took longer than
// building it.
func (g *Graph) WriteJSON(w io.Writer) error {
	if g.plan != nil {
		return g.writeStreamJSON(w)
	}
	jw, err := g.jsonHead(w)
	if err != nil {
		return err
	}
	for i := range g.Nodes {
		if err := jw.item(g.jsonNode(g.Nodes[i], g.parentID(i))); err != nil {
			return err
		}
	}
	jw.summaries()
	for i := range g.Summaries {
		s := &g.Summaries[i]
		if err := jw.item(jsonSummaryOf(g.Nodes[s.Parent].ID, s)); err != nil {
			return err
		}
	}
	return jw.end()
}

// jsonWriter writes a graph's JSON object: the head (jsonHead), then the
// nodes one at a time (item), then the summaries (summaries, item), then
// the end.
type jsonWriter struct {
	bw    *bufio.Writer
	enc   *json.Encoder
	buf   bytes.Buffer // one item, encoded
	items int          // items of the list being written
}

// jsonHead writes the object up to its first node: the fields of the
// graph, then "nodes": [.
func (g *Graph) jsonHead(w io.Writer) (*jsonWriter, error) {
	r := g.Run
	out := jsonGraph{
		Run:     jsonRun{ID: r.ID, FEN: r.FEN, EPDID: r.EPDIDOrNil(), Variant: r.Label(), Status: string(r.Status), Depth: r.Depth, Nodes: r.Nodes},
		Top:     g.Top.ID,
		TopPath: g.TopPath, TopVisits: orNone(g.TopVisits), TopSearches: orNone(g.TopSearches), MaxNodes: g.Options.MaxNodes, Depth: nonNegative(g.Options.Depth), QSOnly: g.QSOnly,
		Nodes:     []jsonNode{},
		Summaries: []jsonSummary{},
	}
	if g.QSOnly {
		out.QSRoots, out.QSNodes, out.FullWidth = &g.QSRoots, &g.QSNodes, &g.FullWidth
	}
	if g.TopPlace != "" {
		out.TopPlace = &g.TopPlace
	}
	if out.TopPath == nil {
		out.TopPath = []string{}
	}
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	// The object ends with its two lists, empty: each is written in its
	// place, its items indented two levels.
	const lists = `"nodes": [],` + "\n  " + `"summaries": []` + "\n}\n"
	if !bytes.HasSuffix(head.Bytes(), []byte(lists)) {
		return nil, fmt.Errorf("export: the JSON object does not end with its nodes and summaries")
	}
	jw := &jsonWriter{bw: bufio.NewWriterSize(w, 64<<10)}
	jw.bw.Write(head.Bytes()[:head.Len()-len(lists)])
	jw.bw.WriteString(`"nodes": [`)
	jw.enc = json.NewEncoder(&jw.buf)
	jw.enc.SetIndent("    ", "  ")
	return jw, nil
}

// item writes the next item of the list being written.
func (jw *jsonWriter) item(v any) error {
	jw.buf.Reset()
	if err := jw.enc.Encode(v); err != nil {
		return err
	}
	if jw.items > 0 {
		jw.bw.WriteByte(',')
	}
	jw.bw.WriteString("\n    ")
	jw.bw.Write(bytes.TrimSuffix(jw.buf.Bytes(), []byte("\n")))
	jw.items++
	return nil
}

// closeList ends the list being written.
func (jw *jsonWriter) closeList() {
	if jw.items > 0 {
		jw.bw.WriteString("\n  ")
	}
	jw.bw.WriteString("]")
	jw.items = 0
}

// summaries ends the nodes and starts the summaries.
func (jw *jsonWriter) summaries() {
	jw.closeList()
	jw.bw.WriteString(",\n  " + `"summaries": [`)
}

// end ends the summaries and the object, and flushes.
func (jw *jsonWriter) end() error {
	jw.closeList()
	jw.bw.WriteString("\n}\n")
	return jw.bw.Flush()
}

// jsonSummaryOf is summary s of the shown node with id parent as JSON.
func jsonSummaryOf(parent int64, s *Summary) jsonSummary {
	return jsonSummary{Parent: parent, Children: s.Children,
		Nodes: s.Nodes, Rows: s.Rows, QSRows: s.QSRows, QSShare: round3(s.QSShare()), MaxQSPly: nonNegative(s.MaxQSPly),
		Unrecorded: s.Unrecorded, DepthLimit: s.DepthLimit, QSTrees: s.QSTrees}
}

// parentID is the id JSON gives as shown node i's parent: its shown
// parent's; for the top node the trace's parent, -1 (null) for the run
// node.
func (g *Graph) parentID(i int) int64 {
	if p := g.Nodes[i].Parent; p >= 0 {
		return g.Nodes[p].ID
	}
	return g.Nodes[i].Node.Parent
}

// jsonNode is shown node n as JSON; parent is its parent's id (parentID),
// -1 for none.
func (g *Graph) jsonNode(n Node, parent int64) jsonNode {
	j := jsonNode{ID: n.ID, Via: n.Via, PV: n.PV,
		Kind: n.Kind.String(), Ply: n.Ply, Iteration: n.Iteration, Depth: n.Depth,
		InCheck: n.InCheck, Alpha: int(n.Alpha), Beta: int(n.Beta), Score: int(n.Score), Bound: n.Bound.String(),
		Cutoff: n.Cause.String(), CutIndex: nonNegative(n.CutIndex), CutIndexAtLeast: n.CutIndexAtLeast,
		Searched: n.Searched, SearchedAtLeast: n.SearchedAtLeast,
		Extension: n.Extension, SubtreeSize: n.SubtreeSize, Incomplete: n.Incomplete}
	if n.Order > 0 {
		order, repeat := n.Order, n.Repeat
		j.Order, j.Repeat = &order, &repeat
	}
	if parent >= 0 {
		j.Parent = &parent
	}
	if n.Kind == engine.KindQS && n.QSPly >= 0 {
		q := n.QSPly
		j.QSPly = &q
	}
	if n.QSLevel >= 0 {
		l := n.QSLevel
		j.QSLevel = &l
	}
	if g.Run.GeneratedRecorded(n.Node) {
		gen := n.Generated
		j.Generated, j.GeneratedAtLeast = &gen, n.GeneratedAtLeast
	}
	if n.Move != engine.NoMove {
		uci := n.Move.UCI()
		j.MoveUCI = &uci
	}
	if n.SAN != "" {
		j.MoveSAN = &n.SAN
	}
	if n.Best != engine.NoMove {
		best := n.Best.UCI()
		j.Best = &best
	}
	if n.HasStandPat {
		sp := int(n.StandPat)
		j.StandPat = &sp
	}
	if n.Summary >= 0 {
		s := n.Summary
		j.Summary = &s
	}
	return j
}

// nonNegative is v for JSON, null when it is negative: the -1 that stands
// for none in a count or index (no depth limit, no cut, no QS node).
func nonNegative(v int) *int {
	if v < 0 {
		return nil
	}
	return &v
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }
