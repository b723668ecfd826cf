package trace

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/horizonqs/horizon/engine"
)

// SearchOptions returns the engine.Options the run was searched with, read
// by engine.ParseOptionsJSON (the one parser of recorded options): Horizon's
// recorders store engine.Options.JSON, older ones the engine.Options.String
// form, which is read too; a run with no options recorded gets its
// variant's preset. Another engine's run (Engine != "") has no
// engine.Options: it returns nil and no error. An error says the options
// stored cannot be read (an unknown variant or switch).
func (r Run) SearchOptions() (*engine.Options, error) {
	if r.Engine != "" {
		return nil, nil
	}
	text := strings.TrimSpace(r.Options)
	key := parsedKey{text, r.Variant}
	if o, ok := parsedOptions.get(key); ok {
		return &o, nil
	}
	var (
		o   engine.Options
		err error
	)
	switch {
	case text == "" || text == "{}":
		if o, err = engine.VariantOptions(r.Variant); err != nil {
			return nil, fmt.Errorf("run %d: no options recorded and %w", r.ID, err)
		}
	case strings.HasPrefix(text, "{"):
		if o, err = engine.ParseOptionsJSON(text, r.Variant); err != nil {
			return nil, fmt.Errorf("run %d: options: %w", r.ID, err)
		}
	default:
		if o, err = engine.ParseOptions(text); err != nil {
			return nil, fmt.Errorf("run %d: options %q: %w", r.ID, text, err)
		}
	}
	parsedOptions.put(key, o)
	return &o, nil
}

// parsedOptions keeps the options of the runs read lately by their text:
// readers word every node's moves by them (MovesText), and parsing the
// JSON again for each node was a sixth of building a page. A file's
// runs mostly share a few texts; the cache is emptied when it holds
// maxParsed, so a file of many distinct ones costs no more memory.
var parsedOptions = optionsCache{m: map[parsedKey]engine.Options{}}

const maxParsed = 64

type parsedKey struct{ text, variant string }

type optionsCache struct {
	mu sync.Mutex
	m  map[parsedKey]engine.Options
}

// get returns a copy of the options parsed from key, if kept.
func (c *optionsCache) get(k parsedKey) (engine.Options, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.m[k]
	return o, ok
}

func (c *optionsCache) put(k parsedKey, o engine.Options) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxParsed {
		clear(c.m)
	}
	c.m[k] = o
}

// HorizonOptions returns the engine.Options of a Horizon run; it is
// SearchOptions (the one reader of recorded options) for callers that
// have checked the run is Horizon's own. Another engine's run is an
// error here.
func (r Run) HorizonOptions() (engine.Options, error) {
	o, err := r.SearchOptions()
	if err != nil {
		return engine.Options{}, err
	}
	if o == nil {
		return engine.Options{}, fmt.Errorf("run %d was searched by %s, which has no Horizon options", r.ID, r.Engine)
	}
	return *o, nil
}

// Label names the run's variant as every reader shows it: for Horizon's
// runs engine.VariantSpec of the options it was searched with ("see",
// "see+see-prune=false"), so a switch set on top of a preset shows, and
// the label can be passed back to --qs; another engine's run (or options
// that do not read) keeps the variant column as stored, its engine's name.
// The column itself holds only the preset name, so files written before
// labels existed show the truth too.
func (r Run) Label() string {
	if o, err := r.SearchOptions(); err == nil && o != nil {
		return engine.VariantSpec(*o)
	}
	return r.Variant
}

// Position names the run's position as readers show it: its FEN, after
// the id of its EPD record when it has one ("WAC.002 2rr3k/pp3pp1/...").
func (r Run) Position() string {
	if r.EPDID == "" {
		return r.FEN
	}
	return r.EPDID + " " + r.FEN
}

// Unrecorded counts the nodes below n that the search visited but the file
// has no row for, given n's children rows kids: a recording filter left
// them out (and with them, children n searched that kids lacks). 0 when
// every node below n was recorded.
func Unrecorded(n Node, kids []Node) int64 {
	missing := n.SubtreeSize - 1
	for _, k := range kids {
		missing -= k.SubtreeSize
	}
	return max(missing, 0)
}

// How the recorder describes its filters in runs.filter: "last-iteration",
// "under e2e4 e7e5", "first 1000 nodes" (RecordOptions.KeepSearching, once
// the cap is reached), joined by filterSep.
const (
	filterUnder = "under "
	filterSep   = "; "
)

// filterFirst is the filter of a run whose recording stopped at its node
// cap while the search went on (RecordOptions.KeepSearching).
func filterFirst(n int64) string { return fmt.Sprintf("first %d nodes", n) }

// FirstNodes returns the node cap of a run whose recording stopped there
// while the search went on (RecordOptions.KeepSearching): the nodes with
// ids up to it have rows, of those after it only the iteration roots.
// 0 for any other run.
func (r Run) FirstNodes() int64 {
	for _, f := range strings.Split(r.Filter, filterSep) {
		var n int64
		if _, err := fmt.Sscanf(f, "first %d nodes", &n); err == nil && n > 0 && f == filterFirst(n) {
			return n
		}
	}
	return 0
}

// FilterText is the run's recording filter in words, as readers print it:
// runs.filter as stored, but for the node cap of KeepSearching, whose
// "first N nodes" (the stored name, kept for the files that have it)
// keeps the rows of the iteration roots entered after the cap too. It
// reads "first 100 nodes and 1 later iteration root" (101 nodes in rows,
// Recorded), not "first 100 nodes" beside 101 nodes recorded.
func (r Run) FilterText() string {
	parts := strings.Split(r.Filter, filterSep)
	for i, f := range parts {
		n := r.FirstNodes()
		if n == 0 || f != filterFirst(n) {
			continue
		}
		switch later := r.Recorded() - n; {
		case len(parts) > 1:
			// Another filter left rows out too: the rows do not count
			// the roots.
			parts[i] += " and the roots of later iterations"
		case later > 0:
			parts[i] += " and " + engine.CountOf(later, "later iteration root", "later iteration roots")
		}
	}
	return strings.Join(parts, filterSep)
}

// PathFiltered reports whether the run was recorded under a move path
// (RecordOptions.Under): its file holds the nodes on and below the path,
// so its rows per iteration or ply are not the search's.
func (r Run) PathFiltered() bool {
	for _, f := range strings.Split(r.Filter, filterSep) {
		if strings.HasPrefix(f, filterUnder) {
			return true
		}
	}
	return false
}

// Limits are the limits a run was searched with and how the search was
// asked for, as the recorders store them (runs.limits, JSON): 'horizon
// trace' writes the first group, a QS-only run adds the second, the UCI
// front end the third, and an imported or other engine's run its go
// command. A key a recorder did not write is the zero value.
type Limits struct {
	Depth         int    `json:"depth"`          // iterative deepening's last depth; 0: none
	Nodes         int64  `json:"nodes"`          // the search's node limit; 0: none
	MoveTimeMS    int64  `json:"movetime_ms"`    // the search's time limit; 0: none
	MaxNodes      int64  `json:"max_nodes"`      // the recorder's node cap (RecordOptions.MaxNodes)
	LastIteration bool   `json:"last_iteration"` // only the last iteration was kept
	Under         string `json:"under"`          // the recording filter's move path, "" for none

	// A QS-only run ('horizon trace --qs-only'): the move that led to the
	// position and the position it was played from (a QS may read it).
	QSOnly   bool   `json:"qs_only"`
	LastMove string `json:"last_move"` // UCI
	LMPos    string `json:"lmpos"`     // FEN

	// A run traced through 'horizon uci': how the GUI got there.
	Source        string   `json:"source"`   // "uci"
	Position      string   `json:"position"` // "startpos" or the GUI's FEN
	Moves         []string `json:"moves"`    // the GUI's moves after it
	Go            string   `json:"go"`       // the go command (also another engine's)
	TargetMS      int64    `json:"target_ms"`
	Infinite      bool     `json:"infinite"`
	Ponder        bool     `json:"ponder"`
	TraceMaxNodes int64    `json:"trace_max_nodes"`
}

// SearchLimits returns the run's limits, typed. Empty limits are the zero
// Limits; limits that are not a JSON object of these keys' types are an
// error naming the run.
func (r Run) SearchLimits() (Limits, error) {
	var l Limits
	text := strings.TrimSpace(r.Limits)
	if text == "" {
		return l, nil
	}
	if err := json.Unmarshal([]byte(text), &l); err != nil {
		return Limits{}, fmt.Errorf("run %d: limits %q: %v", r.ID, text, err)
	}
	return l, nil
}

// EngineDeclared is what another engine's stream declared about its
// search (runs.options of a run with runs.engine set): its move generation
// and its scores. Horizon's own runs have engine.Options instead.
type EngineDeclared struct {
	Moves  string `json:"moves"`  // "legal" or "pseudo" (king-capture engines); "" = legal
	Scores string `json:"scores"` // "soft" or "hard"
	// The engine's score scale (the stream's "mate" and "infinity"
	// records); absent when it declared none, and its scores print as
	// numbers (engine.ScoreScale says what each means).
	Mate     int    `json:"mate,omitempty"`      // the score of a mate at distance 0
	MateMin  int    `json:"mate_min,omitempty"`  // the smallest score that is a mate
	MateUnit string `json:"mate_unit,omitempty"` // "plies" or "turns"
	Infinity int    `json:"infinity,omitempty"`  // the window's end for "no bound"
}

// Scale is the score scale d declares (the zero ScoreScale when none).
func (d EngineDeclared) Scale() engine.ScoreScale {
	return engine.ScoreScale{Mate: engine.Score(d.Mate), MateMin: engine.Score(d.MateMin), MateTurns: d.MateUnit == "turns",
		Infinity: engine.Score(d.Infinity)}
}

// Declared returns what another engine's run declared; ok is false for
// Horizon's own runs (see SearchOptions) and for options that do not read.
func (r Run) Declared() (d EngineDeclared, ok bool) {
	if r.Engine == "" {
		return d, false
	}
	if json.Unmarshal([]byte(r.Options), &d) != nil {
		return EngineDeclared{}, false
	}
	return d, true
}

// MoveRule says which moves a run's tree may hold: legal ones (a null
// move included), and pseudo-legal ones too for another engine that
// declared "moves pseudo" (king-capture engines such as Sunfish, which
// search a move that leaves their king attacked and refute it by taking
// the king). Every reader that replays a run's moves asks it, so such a
// run reads as what it is and not as a damaged file.
type MoveRule struct {
	Pseudo bool
}

// BestSAN is the run's best move in SAN, read in its root position: how
// every command's text names it (runs, trace, diff, the viewer) and their
// --json's best_san. It is "" when the run has none, or when the stored move
// does not read there (a damaged or foreign file): readers then show
// BestMove as stored.
func (r Run) BestSAN() string {
	if r.BestMove == "" {
		return ""
	}
	pos, err := engine.ParseFEN(r.FEN)
	if err != nil {
		return ""
	}
	m, err := pos.ParseUCI(r.BestMove)
	if err != nil {
		return ""
	}
	return pos.SAN(m)
}

// MoveRule returns the rule of run r's moves.
func (r Run) MoveRule() MoveRule {
	d, _ := r.Declared()
	return MoveRule{Pseudo: d.Moves == "pseudo"}
}

// Playable reports whether m may be played at pos in the run's tree.
func (mr MoveRule) Playable(pos *engine.Position, m engine.Move) bool {
	return pos.IsLegal(m) || mr.Pseudo && pos.IsPseudoLegal(m)
}

// Either is the rule of a tree merged from two runs (a diff).
func (mr MoveRule) Either(o MoveRule) MoveRule { return MoveRule{Pseudo: mr.Pseudo || o.Pseudo} }

// Scores is how run r's scores print, the one rule for every reader
// (viewer, export, diff, runs, check): Horizon's scale for Horizon's own
// runs; for another engine's, its own numbers, with mates as #N and its
// window's ends as ∞ where its stream declared its mate and infinity
// values (engine.ScoreFormat says why).
func (r Run) Scores() engine.ScoreFormat {
	if r.Engine != "" {
		d, _ := r.Declared() // options that do not read declare nothing: raw numbers
		return engine.DeclaredScores(d.Scale())
	}
	return engine.HorizonScores
}

// NodeScores is how node n's score prints: as Scores, but a root's (the
// run node's and an iteration root's) as a root's (engine.ScoreFormat.Root:
// a micro-Max engine reports its root's score before the delayed-loss
// bonus its other nodes add).
func (r Run) NodeScores(n Node) engine.ScoreFormat {
	if n.Kind == engine.KindRun || n.Kind == engine.KindRoot {
		return r.ResultScores()
	}
	return r.Scores()
}

// ResultScores is how the run's score (Run.Score, its reported root's)
// prints.
func (r Run) ResultScores() engine.ScoreFormat { return r.Scores().Root() }

// WindowScores is how node n's window prints: as Scores, except the run
// node's, which is Horizon's own node in every run and so has Horizon's
// full window (±∞), never one of the engine's numbers.
func (r Run) WindowScores(n Node) engine.ScoreFormat {
	if n.Kind == engine.KindRun {
		return engine.HorizonScores
	}
	return r.Scores()
}

// WindowText is node n's window as [alpha, beta] in WindowScores, as
// export's labels, diff and check print it (the viewer's columns, which
// may swap ∞ for an ASCII glyph, write their own).
func (r Run) WindowText(n Node) string {
	sf := r.WindowScores(n)
	return "[" + sf.Text(n.Alpha) + ", " + sf.Text(n.Beta) + "]"
}

// MovesText says a node's move counts as the run can vouch for them
// (engine.MovesText's wording). Another engine's stream may leave a node's
// generated count out, which the file stores as 0: for such runs a 0 reads
// "not recorded" (a stored 0 cannot tell it from a real 0). Only Horizon's
// options say whether a node passed over its moves more than once; another
// engine's node never claims passes.
func (r Run) MovesText(n Node) string {
	if r.Engine != "" {
		if !r.GeneratedRecorded(n) {
			return "generated not recorded, " + engine.SearchedText(n.Searched, n.SearchedAtLeast)
		}
		return engine.MovesText(n.Generated, n.Searched, n.GeneratedAtLeast, n.SearchedAtLeast, false)
	}
	passes := n.Searched > n.Generated
	if o, err := r.SearchOptions(); err == nil && o != nil {
		passes = o.NodePasses(n.Depth, n.QSPly)
	}
	return engine.MovesText(n.Generated, n.Searched, n.GeneratedAtLeast, n.SearchedAtLeast, passes)
}

// GeneratedRecorded reports whether node n's generated count is one the
// run recorded: another engine's 0 is a count its stream left out
// (MovesText; export's JSON gives it as null).
func (r Run) GeneratedRecorded(n Node) bool { return r.Engine == "" || n.Generated != 0 }

// CutText says why node n stopped, with its cut index (engine.CutText's
// wording), by the same rule as MovesText: a generated count the run did
// not record is not given ("at move 5", never "at move 5 of 0
// generated"). Every reader that words a cutoff calls this.
func (r Run) CutText(n Node) string {
	generated := n.Generated
	if !r.GeneratedRecorded(n) {
		generated = -1
	}
	return engine.CutText(n.Cause, n.CutIndex, generated, n.CutIndexAtLeast, n.GeneratedAtLeast)
}

// EvalWords names a node's static eval (Node.StandPat) as readers show it:
// the column holds the static eval the node computed, which is a stand pat
// only where the node's variant stands pat. Get one per run (Run.EvalWords
// reads its options once) and ask it per node.
type EvalWords struct {
	opts *engine.Options // nil: another engine's run, or options that do not read
}

// EvalWords returns the run's EvalWords.
func (r Run) EvalWords() EvalWords {
	o, err := r.SearchOptions()
	if err != nil {
		o = nil
	}
	return EvalWords{opts: o}
}

// StoodPat reports whether node n stood pat on its static eval: a QS node
// whose variant stands pat there (engine.Options.StandsPat: stand-pat on,
// not searching evasions), or any QS node of another engine, whose stream
// reports its stand pats. A horizon node of variant none, a QS node with
// stand-pat false and a full-width node computed an eval they did not
// stand on.
func (w EvalWords) StoodPat(n Node) bool {
	if n.Kind != engine.KindQS || !n.HasStandPat {
		return false
	}
	return w.opts == nil || w.opts.StandsPat(n.InCheck)
}

// Label is "stand pat" for a node that stood pat (StoodPat), "static eval"
// for one that only computed it.
func (w EvalWords) Label(n Node) string {
	if w.StoodPat(n) {
		return "stand pat"
	}
	return "static eval"
}

// Short is Label's word for a narrow space: "stand" or "eval".
func (w EvalWords) Short(n Node) string {
	if w.StoodPat(n) {
		return "stand"
	}
	return "eval"
}
