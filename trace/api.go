// Package trace stores search trees in SQLite files and answers questions
// about them. A trace file holds one or more runs (one search of one position
// with one QS variant) and every node each run visited, as a Perfetto-style
// slice table: a node's id is its pre-order visit number within its run, so
// its subtree is exactly the id range [ID, ID+SubtreeSize).
//
// Writers use Create and NewRecorder (a *Recorder is an engine.Tracer);
// readers (the viewer, the exporter, the comparison, the CLI) use Open and
// the query methods on *Store. Every query takes its values as SQL
// parameters. Users can also query a file with the sqlite3 shell through the
// stable names runs(id, fen, variant, status, nodes) and nodes(run_id, id,
// parent_id, ply, move, depth, alpha, beta, stand_pat, score, bound, cutoff,
// qs_level, subtree_size, ...); see schema/001_init.sql.
package trace

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/horizonqs/horizon/engine"
)

// Sentinel errors, matched with errors.Is. The errors returned wrap them and
// name the file (and the run or node id where one is involved).
var (
	// ErrNotTrace: the file is not a SQLite database, or is one that
	// Horizon did not write.
	ErrNotTrace = errors.New("not a Horizon trace")
	// ErrNewerSchema: the file was written by a newer Horizon whose schema
	// this build does not know.
	ErrNewerSchema = errors.New("trace written by a newer Horizon")
	// ErrCorrupt: the file is a Horizon trace but is truncated or damaged.
	ErrCorrupt = errors.New("trace file is truncated or damaged")
	// ErrForeignSchema: the file holds a schema object Horizon did not
	// make and will not open the file with (checkSchema): a trigger, a
	// view, a table under a name Horizon reads or writes, an index on one
	// of Horizon's tables, a table of Horizon's defined otherwise.
	ErrForeignSchema = errors.New("a schema object Horizon did not make")
	// ErrNoRun: no run with that id in the file.
	ErrNoRun = errors.New("no such run")
	// ErrNoNode: no node with that id in the run.
	ErrNoNode = errors.New("no such node")
	// ErrNoMove: a move of a path given to Find is not legal, or no child
	// node was reached by it.
	ErrNoMove = errors.New("no such move")
	// ErrNoRoom: NewRecorder refused a run under RecordOptions.MaxBytes
	// because the file has no room left for one (a *RoomError says how
	// much is used).
	ErrNoRoom = errors.New("no room for another run")

	// A Recorder's context is cancelled with these (context.Cause tells
	// them apart from the caller's own cancellation).

	// ErrNodeLimit: RecordOptions.MaxNodes was reached.
	ErrNodeLimit = errors.New("node limit reached")
	// ErrSizeLimit: the file would outgrow RecordOptions.MaxBytes.
	ErrSizeLimit = errors.New("file size limit reached")
)

// Status tells how a run ended.
type Status string

// Run statuses.
const (
	// StatusRunning: the recorder has not finished; a file in this state
	// after the recorder's process died holds every batch written so far.
	StatusRunning Status = "running"
	// StatusComplete: the search ran to its depth limit (or, with no
	// limit at all, ended by itself). A cancellation that arrives after
	// the search finished (a Ctrl-C, a UCI stop or quit racing the last
	// node) stopped nothing and leaves the run complete.
	StatusComplete Status = "complete"
	// StatusInterrupted: the search was cancelled (Ctrl-C, SIGTERM, a
	// cancelled context) before it finished: it says it stopped, or nodes
	// were still open; or another engine's stream ended in the middle of
	// its search (stop cause "stream"). The open path is stored, marked
	// Incomplete.
	StatusInterrupted Status = "interrupted"
	// StatusTruncated: a limit stopped the search before its depth: the
	// search's own node or time limit (Horizon's --nodes/--movetime, or
	// another engine's 'go nodes'/'go movetime' even when it ended without
	// an abort record), or the recorder's node or size cap. The open path
	// is stored, marked Incomplete. One rule for every engine.
	StatusTruncated Status = "truncated"
	// StatusFailed: writing the trace failed (disk full, ...), or another
	// engine's stream broke a rule of the protocol (an illegal move); the
	// rows written before the failure are kept.
	StatusFailed Status = "failed"
	// StatusAbandoned: the file says running, but the process recording
	// the run has died (SIGKILL, a crash, a power cut). Readers show this;
	// the file itself still says running. The tree is whole up to the last
	// batch the recorder committed, its open path marked Incomplete.
	StatusAbandoned Status = "abandoned"
)

// StatusText is a run's status as the commands and the viewer print it,
// with what stopped it where the file says (Run.StopCause; "" when none
// or not kept): "truncated (stop cause: size)".
func StatusText(st Status, cause string) string {
	if cause == "" {
		return string(st)
	}
	return string(st) + " (stop cause: " + cause + ")"
}

// Statuses lists every run status, in the order help texts give them.
var Statuses = []Status{StatusComplete, StatusTruncated, StatusInterrupted, StatusRunning, StatusAbandoned, StatusFailed}

// Meaning says in a phrase what a run with status s is: the one wording
// of the statuses for help texts, legends and the viewer.
func (s Status) Meaning() string {
	switch s {
	case StatusComplete:
		return "the search ran to its depth limit"
	case StatusTruncated:
		return "a limit stopped the search before its depth: its own node or time limit, or the recorder's node or size cap"
	case StatusInterrupted:
		return "the search was cancelled (Ctrl-C, a signal) before it finished, or another engine's stream ended in the middle of it"
	case StatusRunning:
		return "the recorder is still writing it"
	case StatusAbandoned:
		return "the recorder died (killed, crashed); its committed rows are kept"
	case StatusFailed:
		return "writing failed (a full disk), or another engine's stream broke a rule (an illegal move); the rows before are kept"
	}
	return "a status this Horizon does not know"
}

// OpenNode is the word for a node of a run with status s that was still
// open when its rows were last written: "running" while the run is
// recorded; once the recorder is gone the node will never finish, and the
// word is the status's own ("abandoned", "failed").
func (s Status) OpenNode() string { return string(s) }

// StatusHelp lists the statuses and their meanings, one per line, each
// line starting with indent.
func StatusHelp(indent string) string {
	var b []byte
	for _, st := range Statuses {
		b = append(b, fmt.Sprintf("%s%-12s %s\n", indent, st, st.Meaning())...)
	}
	return string(b)
}

// Ended reports whether a run with this status was finished by its
// recorder: not still recorded (running), nor abandoned.
func (s Status) Ended() bool { return s != StatusRunning && s != StatusAbandoned }

// Partial reports whether a run with this status may lack rows a finished
// run would have: it is still recorded, its recorder died, or writing
// failed.
func (s Status) Partial() bool {
	return s == StatusRunning || s == StatusAbandoned || s == StatusFailed
}

// Stop causes (Run.StopCause): what stopped a truncated or interrupted
// run, in the words 'horizon search' prints (engine.StopReason's names)
// and a few of the recorder's and the importer's own.
const (
	StopNodes  = "nodes"  // a node limit: the search's own, or the recorder's cap (RecordOptions.MaxNodes)
	StopTime   = "time"   // the search's time limit
	StopSize   = "size"   // the recorder's size cap (RecordOptions.MaxBytes)
	StopCancel = "cancel" // the search was cancelled: Ctrl-C, a signal, a UCI stop
	StopAbort  = "abort"  // another engine's stream says it aborted the search, which had no single time or node limit to name
	StopStream = "stream" // another engine's stream ended or broke before its search did
)

// Run is one search of one position with one QS variant.
type Run struct {
	ID      int64
	Created time.Time
	FEN     string // root position
	// EPDID is the id opcode of the EPD record whose position the run
	// searched ("WAC.002"); "" when the position came otherwise, its
	// record had no id, or the file is older than schema version 6.
	EPDID   string
	Variant string // the variant column: the preset name (another engine's name); readers show Label
	Options string // every search option, as JSON, so the run can be repeated exactly
	Limits  string // depth, node limit and so on, as JSON
	Version string // Horizon version that recorded the run
	Status  Status
	// StopCause says what stopped a truncated or interrupted run (StopNodes,
	// StopSize, ...); "" for a complete or failed run, one still recorded,
	// and runs of files older than schema version 5, which did not keep it.
	StopCause string

	// Totals over every node the search visited (including nodes a
	// recording filter left out of the file). While the run is recorded,
	// and for an abandoned run, they count the nodes of the rows
	// committed (the open path's placeholders too): Nodes equals Rows
	// and the stats' Nodes unless a filter left nodes out.
	Nodes    int64
	QSNodes  int64
	MaxPly   int
	MaxQSPly int // deepest QS node's distance in plies from its QS root
	Elapsed  time.Duration

	// The search's answer.
	BestMove string   // UCI, "" when none
	Score    int      // centipawns from the side to move's view
	PV       []string // UCI moves
	Depth    int      // last completed iteration (of the rows committed, while recorded or abandoned)

	// Rows is how many node rows the file holds for the run: the rows
	// committed (fewer than Nodes when recording was filtered).
	Rows int64
	// Filter describes the recording filter ("" when every node was kept).
	Filter string

	// Engine is the engine that searched: "" for Horizon's own, else the
	// other engine's name (its UCI id name).
	Engine string
	// FailHard: the engine declared fail-hard scores (every score inside
	// its node's window); false for fail-soft engines and Horizon's.
	FailHard bool
	// FileBytes is the trace file's size when the run last committed
	// (0 in files older than schema version 3).
	FileBytes int64

	liveSummary bool // stats and hotspots are stored for the run (also while it records)
	scored      bool // an iteration (or a QS-only run's QS) finished: Score is its score
	qsAnswer    bool // scanRun cannot tell scored: Store.qsAnswer reads the run's roots
}

// Recorded returns how many positions the file holds rows of: Rows less
// the run node's row. It is the "recorded" figure beside Nodes.
func (r Run) Recorded() int64 { return max(r.Rows-1, 0) }

// QSShare returns QSNodes/Nodes: the share of the nodes searched spent in
// QS (0 before any). Under a recording filter Stats.QSShare differs: it is
// of the rows recorded.
func (r Run) QSShare() float64 {
	if r.Nodes <= 0 {
		return 0
	}
	return float64(r.QSNodes) / float64(r.Nodes)
}

// Scored reports whether the run has a score: an iteration finished
// (Depth > 0), or a QS-only run's quiescence search finished (its depth
// is 0): Horizon's --qs-only, or another engine's stream that searched QS
// alone under its root and concluded it. Without one Score is 0 and means
// nothing; show it blank.
func (r Run) Scored() bool { return r.scored }

// Ended reports whether the run's recorder finished it: the run is
// neither still recorded nor left behind by a recorder that died.
func (r Run) Ended() bool { return r.Status.Ended() }

// ElapsedKnown reports whether Elapsed is the search's time. A run still
// recorded, or whose recorder died, stores it only at the end (0 until
// then). Another engine's run stores 0 when its stream gave no time: an
// end record without time= in a stream imported from a file, whose import
// time is no time of the search (foreign.Options.Live).
func (r Run) ElapsedKnown() bool { return r.Ended() && (r.Engine == "" || r.Elapsed > 0) }

// EPDIDOrNil is EPDID for JSON: nil (null) when the run has none, so
// every command's JSON says epd_id the same way.
func (r Run) EPDIDOrNil() *string {
	if r.EPDID == "" {
		return nil
	}
	return &r.EPDID
}

// ElapsedMS is Elapsed in milliseconds, nil (JSON null) when it is not
// known (ElapsedKnown).
func (r Run) ElapsedMS() *int64 {
	if !r.ElapsedKnown() {
		return nil
	}
	ms := r.Elapsed.Milliseconds()
	return &ms
}

// Node is one row of the node table: one node a run's search visited.
type Node struct {
	RunID  int64
	ID     int64 // pre-order visit number within the run; the run node is 0
	Parent int64 // -1 for the run node

	Ply       int // distance from the iteration root
	Iteration int // nominal depth of the iteration this node belongs to; 0 for the run node
	Depth     int // remaining depth on entry; <= 0 in QS
	Move      engine.Move
	Alpha     engine.Score // window on entry
	Beta      engine.Score
	Kind      engine.NodeKind
	QSLevel   int // the engine's QS level (threshold variant); -1 where it has none
	QSPly     int // distance from the QS root (0 at the QS root); -1 outside QS
	InCheck   bool

	StandPat    engine.Score // static eval; meaningful only when HasStandPat
	HasStandPat bool

	Score    engine.Score
	Bound    engine.Bound
	Cause    engine.Cause
	CutIndex int // index of the move that failed high, -1 when none
	// CutIndexAtLeast: CutIndex is a lower bound. The file stores the cut
	// index in 8 bits (254 at most), so a node whose cut came later reads
	// 254 with this set (a stored 254 may be a true one: "254 or more" is
	// still true of it).
	CutIndexAtLeast bool
	Best            engine.Move // NoMove when none
	// Generated counts the moves the node generated. The file stores 255
	// at most, and no row tells a larger count: a stored 255 reads as 255
	// with GeneratedAtLeast set, the node generated 255 moves or more.
	Generated        int
	GeneratedAtLeast bool
	// Searched counts the moves the node searched (every pass's). The file
	// stores 255 at most; readers get the true count from the node's child
	// rows, and where a recording filter left them out, 255 with
	// SearchedAtLeast set: the node searched 255 moves or more.
	Searched        int
	SearchedAtLeast bool
	Extension       int // plies of extension the move into this node got

	// SubtreeSize counts the node and every descendant the search visited;
	// the descendants are ids ID+1 .. ID+SubtreeSize-1. (With a recording
	// filter some ids in that range have no row.)
	SubtreeSize int64
	// Incomplete: the node was still open when the search stopped, so its
	// score, bound and counts describe a partial search.
	Incomplete bool
	// Open: the row is the recorder's placeholder for a node still open
	// when its batch was written (a run being recorded, or whose recorder
	// died): Incomplete, no score, and a SubtreeSize covering only the
	// rows written so far.
	Open bool
}

// Nodes returns how many positions n's subtree holds: SubtreeSize, less
// the run node's own row when n is the run node (Horizon's parent of the
// iterations is no position). Every figure that says "N nodes" of a
// subtree uses it, so the run node's subtree reads as the run's nodes.
func (n Node) Nodes() int64 {
	if n.Parent < 0 {
		return max(n.SubtreeSize-1, 0)
	}
	return n.SubtreeSize
}

// End returns the first id after the node's subtree.
func (n Node) End() int64 { return n.ID + n.SubtreeSize }

// Contains reports whether id lies in n's subtree (n itself included).
func (n Node) Contains(id int64) bool { return id >= n.ID && id < n.End() }

// QSRootLabel names a node no move led to below the run node: a QS-only
// run's QS root, searched in the run's position itself. Readers label it
// with this (a move column would say "0000" or NULL).
const QSRootLabel = "QS root (the position)"

// IsQSRoot reports whether the node is where a quiescence search began: a QS
// node whose parent is not one. Only meaningful with the parent's kind.
func IsQSRoot(n, parent Node) bool { return n.Kind == engine.KindQS && parent.Kind != engine.KindQS }

// IsChainTop reports whether a node whose move got ext plies of extension,
// below a parent whose move got parentExt, heads an extension chain. An
// extension chain is a maximal run of consecutive extended moves: its top
// is an extended node (ext > 0) whose parent's move was not extended (an
// iteration root's "parent extension" is 0); the chain is the top node with
// its whole subtree, and its length is the longest run of consecutive
// extended moves from the top down. Chains nest: an extended node deeper in
// a chain's subtree below a non-extended node heads a chain of its own,
// counted in both. A chain is labelled with the cause of its top's
// extension (engine.ExtensionCause).
func IsChainTop(ext, parentExt int) bool { return ext > 0 && parentExt <= 0 }

// GrowthCause labels node n, whose parent is parent, with why its subtree
// is growth of its own: a QS tree (GrowthQS), an extension chain (with the
// cause of its top's extension, read through opts, the run's options; nil
// for another engine's run, whose chains are GrowthExt), or GrowthNone.
func GrowthCause(n, parent Node, opts *engine.Options) engine.GrowthCause {
	switch {
	case IsQSRoot(n, parent):
		return engine.GrowthQS
	case IsChainTop(n.Extension, parent.Extension):
		return ChainCause(opts, parent.Move, n.Move, n.InCheck, n.Kind == engine.KindQS)
	}
	return engine.GrowthNone
}

// ChainCause is the cause of an extension chain whose top was reached by
// move m, with prev the move into its parent and inCheck whether the side to
// move at the top is in check and inQS whether the top is a QS node:
// opts.ExtensionCause, or GrowthExt without options (another engine's run,
// whose extensions' causes are not known).
func ChainCause(opts *engine.Options, prev, m engine.Move, inCheck, inQS bool) engine.GrowthCause {
	if opts == nil {
		return engine.GrowthExt
	}
	return opts.ExtensionCause(prev, m, inCheck, inQS)
}

// Order is the order Children returns a node's children in.
type Order int

// Child orders.
const (
	BySearch Order = iota // the order the search visited them (= ascending id)
	BySize                // biggest subtree first, ties by search order
)

// HotspotOrder says how Hotspots ranks nodes.
type HotspotOrder int

// Hotspot orders.
const (
	// HotspotBySize ranks the biggest subtrees whatever their cause by subtree
	// size: QS trees (QS roots, where a quiescence search began) and
	// extension chains (see IsChainTop), each labelled with its cause.
	HotspotBySize HotspotOrder = iota
	// HotspotByGrowth ranks full-width nodes by Growth, the branching factor
	// their subtree would need to reach its size in depth+1 plies: a node
	// with 2 plies left and 50,000 nodes below ranks above one with 6
	// plies left and the same size.
	HotspotByGrowth
	// HotspotQS ranks QS trees only, by subtree size.
	HotspotQS
	// HotspotChains ranks extension chains only, by subtree size.
	HotspotChains
)

// String is the order's name, as 'horizon hotspots --by' takes it.
func (o HotspotOrder) String() string {
	switch o {
	case HotspotBySize:
		return "size"
	case HotspotByGrowth:
		return "growth"
	case HotspotQS:
		return "qs"
	case HotspotChains:
		return "chain"
	}
	return fmt.Sprintf("HotspotOrder(%d)", int(o))
}

// Hotspot is a node ranked by Hotspots.
type Hotspot struct {
	Node   Node
	Growth float64 // SubtreeSize^(1/(max(Depth,0)+1))
	// Cause says what the subtree is: a QS tree, an extension chain and
	// the cause of its top's extension, or GrowthNone (a full-width node
	// ranked by growth that heads neither).
	Cause engine.GrowthCause
	// Share is SubtreeSize over the nodes the run visited (Run.Nodes).
	Share float64
}

// PlyStat counts the nodes at one ply (over all iterations).
type PlyStat struct {
	Ply     int   `json:"ply"`
	Nodes   int64 `json:"nodes"`
	QSNodes int64 `json:"qs_nodes"`
}

// LevelStat counts nodes by QS ply (distance from the QS root) or by the
// engine's QS level: which is the list's (QSPlyStats, QSLevelStats), and
// so is its JSON key.
type LevelStat struct {
	Level int
	Nodes int64
}

// LevelCounts gives the row's level and count, named "nodes" in JSON.
func (s LevelStat) LevelCounts() (int, []int64, []string) {
	return s.Level, []int64{s.Nodes}, []string{"nodes"}
}

// LevelRow is a row of counts by a QS ply or level: its level, then its
// counts with their JSON keys.
type LevelRow interface {
	LevelCounts() (level int, counts []int64, names []string)
}

// ByQSPly and ByQSLevel key a LevelList's rows.
type (
	ByQSPly   struct{}
	ByQSLevel struct{}
)

// Key is the JSON key of a QS ply, as the SQL view and export's JSON name it.
func (ByQSPly) Key() string { return "qs_ply" }

// Key is the JSON key of an engine QS level.
func (ByQSLevel) Key() string { return "qs_level" }

// LevelList is a list of counts by a QS ply or level whose JSON rows are
// keyed by their fact, K's key: {"qs_ply": 2, "nodes": 10}. Lists by QS
// ply and by QS level both said "level", so a QS ply read as a QS level.
type LevelList[R LevelRow, K interface{ Key() string }] []R

// MarshalJSON writes the rows as objects, the level under K's key first
// and again under "level" last.
func (l LevelList[R, K]) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	var k K
	b := []byte{'['}
	for i, r := range l {
		level, counts, names := r.LevelCounts()
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(append(b, '{'), k.Key())
		b = strconv.AppendInt(append(b, ':'), int64(level), 10)
		for j, name := range names {
			b = strconv.AppendQuote(append(b, ','), name)
			b = strconv.AppendInt(append(b, ':'), counts[j], 10)
		}
		// "level", the rows' one key before K's, is kept for the scripts
		// that read it.
		b = strconv.AppendInt(append(b, `,"level":`...), int64(level), 10)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// QSPlyStats count nodes by QS ply: JSON rows {"qs_ply", "nodes"}.
type QSPlyStats = LevelList[LevelStat, ByQSPly]

// QSLevelStats count nodes by the engine's QS level: JSON rows
// {"qs_level", "nodes"}.
type QSLevelStats = LevelList[LevelStat, ByQSLevel]

// IterationStat describes one iteration of iterative deepening.
type IterationStat struct {
	Iteration int   `json:"iteration"` // nominal depth
	RootID    int64 `json:"root_id"`   // id of the iteration's KindRoot node
	Nodes     int64 `json:"nodes"`     // rows in the iteration's subtree, root included
	QSNodes   int64 `json:"qs_nodes"`
	// EBF is Nodes divided by the previous iteration's Nodes: nil for the
	// first iteration with rows, which has none before it. PlyEBF is
	// Nodes^(1/Iteration). Both are nil for a run recorded under a move
	// path (Run.PathFiltered): its rows are not its iterations' nodes.
	// Both are nil for a Partial iteration too, and for one with nodes
	// past the recording's cap (Run.FirstNodes): its rows are part of it.
	EBF    *float64 `json:"ebf"`
	PlyEBF *float64 `json:"ply_ebf"`
	// Partial: the run reports an earlier depth (Run.Depth), so this
	// iteration did not finish (the search stopped in it, or it is still
	// recorded): its counts are of the part searched, and it has no EBF
	// or nodes^(1/d).
	Partial bool `json:"partial"`
}

// Stats summarises the rows of one run.
//
// The JSON tags are the keys of 'horizon stats --json', which writes it.
type Stats struct {
	RunID int64 `json:"-"` // the command names the run itself
	// Nodes, and every count here, counts the run's rows as positions:
	// the nodes recorded, fewer than the nodes searched (Run.Nodes) when a
	// recording filter left some out (Run.Filter); the run node's row, no
	// position, is left out (of Nodes and of ply 0). The JSON keys of the
	// figures runs and trace also give say recorded: "nodes", "qs_nodes",
	// "qs_share", "max_ply" and "max_qs_ply" are the search's everywhere.
	Nodes   int64 `json:"recorded_nodes"`
	QSNodes int64 `json:"recorded_qs_nodes"` // rows of kind QS
	// QSRoots counts QS roots (horizon nodes that entered QS); QS nodes
	// below the horizon are QSNodes-QSRoots.
	QSRoots int64 `json:"qs_roots"`
	// QSShare is QSNodes/Nodes: the share of nodes spent in QS.
	// QSBelowShare is (QSNodes-QSRoots)/Nodes: the share QS added beyond
	// the horizon nodes a search without QS would also visit.
	QSShare      float64         `json:"recorded_qs_share"`
	QSBelowShare float64         `json:"qs_below_horizon_share"`
	MaxPly       int             `json:"recorded_max_ply"`
	MaxQSPly     int             `json:"recorded_max_qs_ply"`
	Plies        []PlyStat       `json:"plies"`      // by ply, ascending
	QSPlies      QSPlyStats      `json:"qs_plies"`   // by distance from the QS root (0 = the QS root)
	QSLevels     QSLevelStats    `json:"qs_levels"`  // by engine QS level (threshold variant), ascending
	Iterations   []IterationStat `json:"iterations"` // in order
}

// RunInfo describes a run about to be recorded.
type RunInfo struct {
	FEN     string // required: the root position
	EPDID   string // the id of the EPD record FEN came from, if any
	Variant string
	Options string // JSON
	Limits  string // JSON
	Version string
}

// RecordOptions keep a trace small and bound its size.
type RecordOptions struct {
	// MaxNodes stops recording after this many nodes: the recorder cancels
	// the context returned by Recorder.Context, the open path is written
	// marked Incomplete and the run is marked truncated. 0 means no limit
	// (pass the limit to the search as well, so it stops promptly).
	MaxNodes int64
	// KeepSearching makes MaxNodes bound the recording alone: past the
	// cap the search goes on unrecorded, as it would untraced. The nodes
	// entered after it have no rows (the nodes open then keep theirs, with
	// their real results), the run's totals, answer and status are the
	// search's, and the run's filter says "first N nodes" (Run.Filter): a
	// recording filter, as readers show, with fewer rows than nodes.
	// Limit then leaves the search's limits alone. For a UCI session,
	// whose traced games must play as untraced ones.
	KeepSearching bool
	// LastIterationOnly keeps only the last iteration's nodes (and the run
	// node): each new iteration replaces the previous one in the file.
	LastIterationOnly bool
	// Under keeps only the nodes on and below this move path from the root
	// (SAN or UCI), in every iteration, plus the run and iteration roots.
	Under []string
	// MaxBytes stops recording early enough that the finished trace file,
	// the run's parent index included, stays within this many bytes: a
	// commit after which the rows still to come could cross it stops the
	// search, like MaxNodes does (the run is marked truncated). A file
	// with too little room left for a run to stop within the cap (an
	// appended run needs about 256 KiB) gets no run: NewRecorder returns
	// a *RoomError (ErrNoRoom) before it writes anything. 0: no limit.
	MaxBytes int64
	// BatchRows is the number of rows per batch handed to the writer
	// goroutine; 0 picks a default.
	BatchRows int

	// Engine names the engine whose search is recorded when it is not
	// Horizon's own (its UCI id name); "" for Horizon's engine.
	Engine string
	// FailHard records that the engine declared fail-hard scores.
	FailHard bool
}

// Result is the search's answer, given to Recorder.Finish.
type Result struct {
	// Status overrides the status the recorder would infer from Stopped
	// and the nodes it saw (see Status: complete unless the search was
	// stopped; then truncated by a limit, interrupted by a cancel); a
	// write error makes it failed regardless. Leave it empty to infer.
	Status Status
	// Stopped is why the search ended early, if it did: a search stopped by
	// its own node or time limit is truncated, one cancelled is interrupted
	// (truncated when the recorder's own cap cancelled it). A search that
	// did not report it is still seen as stopped when a node left with
	// CauseStop or was open at Finish.
	Stopped engine.StopReason
	// StopCause overrides the run's stop cause (Run.StopCause), which the
	// recorder otherwise infers from Stopped and its own caps: for a
	// caller that knows better (another engine's stream).
	StopCause string
	// NoAnswer says the search gave no answer, no iteration having
	// finished (engine.Result.Finished): the run stores no best move, score
	// or PV, whatever BestMove, Score and PV hold.
	NoAnswer bool
	BestMove engine.Move
	Score    engine.Score
	PV       []engine.Move
	Depth    int
	Elapsed  time.Duration // 0: time from NewRecorder to Finish
	// TimeUnknown says the search's time is not known (another engine's
	// stream imported from a file gave none): Elapsed is ignored and 0
	// stored, which readers of an engine's run show as unknown
	// (Run.ElapsedKnown).
	TimeUnknown bool
}
