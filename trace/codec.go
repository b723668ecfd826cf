package trace

import "github.com/horizonqs/horizon/engine"

// row is one node as the recorder builds it and the writer stores it: the
// packed columns of node_rows plus what the writer's summary needs.
type row struct {
	id     int64
	parent int64
	size   int64
	info   int64 // packed as in node_rows.info
	counts int64 // packed as in node_rows.counts
	alpha  int32
	beta   int32
	score  int32
	stand  int32
	move   uint32
	best   uint32

	iteration int32
	qsPly     int32 // distance from the QS root; -1 outside QS
	hasStand  bool
	valid     bool // a slot the writer must skip when false (node still open)
	// placeholder: the row of a run or iteration root written when the
	// search enters it (marked incomplete, its subtree reaching to the end
	// of the run), so a reader can browse a run while it is recorded or
	// after its recorder died; the real row replaces it at Leave.
	placeholder bool
	// chainTop: the node heads an extension chain (see IsChainTop); the
	// recorder knows it from the parent's extension, the summary ranks it.
	// Not stored: readers tell it from the node and its parent.
	chainTop bool
}

// subCounts are a subtree's figures as the recorder adds them up at each
// node's Leave (RangeCounts' figures, the plies + 1 so that the zero value
// is no row).
type subCounts struct {
	rows, qsRows          int64
	maxQSPly1, maxQSNode1 int32
}

// add adds a child subtree's figures.
func (c *subCounts) add(o subCounts) {
	c.rows += o.rows
	c.qsRows += o.qsRows
	c.maxQSPly1 = max(c.maxQSPly1, o.maxQSPly1)
	c.maxQSNode1 = max(c.maxQSNode1, o.maxQSNode1)
}

// Bit layout of row.info, the recorder's and the reader's: node_rows.info of
// schema versions 1 and 2 (schema/001_init.sql), with the QS ply in bits
// 40-46. Schema 3 stores the same fields in another order (storedInfo).
const (
	infoKindShift   = 0
	infoBoundShift  = 3
	infoCauseShift  = 5
	infoPlyShift    = 10
	infoDepthShift  = 19
	infoQSShift     = 27
	infoCheckShift  = 34
	infoIncShift    = 35
	infoExtShift    = 36
	infoQSPlyShift  = 40
	infoQSPlyMask   = 127
	maxQSPlyStored  = 126
	depthBias       = 128
	maxPlyStored    = 511
	maxQSStored     = 125
	maxExtStored    = 15
	maxCountStored  = 255
	countsSearchSh  = 8
	countsCutShift  = 16
	countsOpenBit   = 1 << 24 // a placeholder: the node was still open when its row was written
	maxDepthStored  = 127
	minDepthStored  = -128
	maxNodesPerRun  = 1 << 32
	infoKindMask    = 7
	infoBoundMask   = 3
	infoCauseMask   = 31
	infoPlyMask     = 511
	infoDepthMask   = 255
	infoQSMask      = 127
	infoExtMask     = 15
	countsFieldMask = 255
)

// Schema 3's node_rows.info (schema/003_keyed.sql) keeps bits 0-26 and
// puts the QS ply next, then the fields that are mostly zero: a QS node's
// info then fits in SQLite's 4-byte integer, where row.info's order (QS
// ply at bit 40) takes 6 bytes, about 2 bytes a node of file.
const (
	storedLowMask    = 1<<27 - 1
	storedQSPlyShift = 27
	storedQSShift    = 34
	storedCheckShift = 41 // in check, then incomplete at 42
	storedExtShift   = 43
)

// movedFields are the fields of row.info that schema 3 stores elsewhere,
// with their mask and their shifts in either (bits 0-26 stay put): one
// table, so the two directions cannot drift apart.
var movedFields = [...]struct {
	mask        int64
	row, stored int
}{
	{infoQSPlyMask, infoQSPlyShift, storedQSPlyShift},
	{infoQSMask, infoQSShift, storedQSShift},
	{3, infoCheckShift, storedCheckShift}, // in check and incomplete
	{infoExtMask, infoExtShift, storedExtShift},
}

// storedInfo turns row.info into schema 3's node_rows.info.
func storedInfo(i int64) int64 {
	s := i & storedLowMask
	for _, f := range movedFields {
		s |= (i >> f.row & f.mask) << f.stored
	}
	return s
}

// loadedInfo turns schema 3's node_rows.info back into row.info.
func loadedInfo(s int64) int64 {
	i := s & storedLowMask
	for _, f := range movedFields {
		i |= (s >> f.stored & f.mask) << f.row
	}
	return i
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// packEnter fills the fields known when the search enters a node. Values
// beyond a field's width are clamped (a ply above 511, a depth beyond
// ±127), which no sane search reaches.
func packEnter(e *engine.EnterInfo) int64 {
	return int64(e.Kind&infoKindMask)<<infoKindShift |
		int64(clamp(e.Ply, 0, maxPlyStored))<<infoPlyShift |
		int64(clamp(e.Depth, minDepthStored, maxDepthStored)+depthBias)<<infoDepthShift |
		int64(clamp(e.QSLevel, -1, maxQSStored)+1)<<infoQSShift |
		b2i(e.InCheck)<<infoCheckShift |
		int64(clamp(e.QSPly, -1, maxQSPlyStored)+1)<<infoQSPlyShift
}

// packLeave adds the fields known when the search leaves a node.
func packLeave(info int64, l *engine.LeaveInfo, incomplete bool) int64 {
	return info | int64(l.Bound&infoBoundMask)<<infoBoundShift |
		int64(l.Cause&infoCauseMask)<<infoCauseShift |
		b2i(incomplete)<<infoIncShift |
		int64(clamp(l.Extension, 0, maxExtStored))<<infoExtShift
}

// MaxStoredGenerated and MaxStoredCutIndex are the largest generated
// count and cut index a trace stores: a larger one is stored as that and
// reads back as a lower bound (Node.GeneratedAtLeast, CutIndexAtLeast).
const (
	MaxStoredGenerated = maxCountStored
	MaxStoredCutIndex  = maxCountStored - 1
)

// CountsClamped reports whether a node's generated count or cut index is
// more than a trace stores (an importer says so: the file keeps only a
// lower bound).
func CountsClamped(generated, cutIndex int) bool {
	return generated > MaxStoredGenerated || cutIndex > MaxStoredCutIndex
}

func packCounts(generated, searched, cutIndex int) int64 {
	return int64(clamp(generated, 0, maxCountStored)) |
		int64(clamp(searched, 0, maxCountStored))<<countsSearchSh |
		int64(clamp(cutIndex+1, 0, maxCountStored))<<countsCutShift
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// decode turns one stored row into a Node (Iteration is filled by the caller).
func decode(run, id, up, size, info, counts, alpha, beta, score int64, stand *int64, move, best int64) Node {
	n := Node{
		RunID:       run,
		ID:          id,
		Parent:      id - up,
		Ply:         int(info >> infoPlyShift & infoPlyMask),
		Depth:       int(info>>infoDepthShift&infoDepthMask) - depthBias,
		Move:        engine.Move(move),
		Alpha:       engine.Score(alpha),
		Beta:        engine.Score(beta),
		Kind:        engine.NodeKind(info >> infoKindShift & infoKindMask),
		QSLevel:     int(info>>infoQSShift&infoQSMask) - 1,
		QSPly:       int(info>>infoQSPlyShift&infoQSPlyMask) - 1,
		InCheck:     info>>infoCheckShift&1 != 0,
		Score:       engine.Score(score),
		Bound:       engine.Bound(info >> infoBoundShift & infoBoundMask),
		Cause:       engine.Cause(info >> infoCauseShift & infoCauseMask),
		CutIndex:    int(counts>>countsCutShift&countsFieldMask) - 1,
		Best:        engine.Move(best),
		Generated:   int(counts & countsFieldMask),
		Searched:    int(counts >> countsSearchSh & countsFieldMask),
		Extension:   int(info >> infoExtShift & infoExtMask),
		SubtreeSize: size,
		Incomplete:  info>>infoIncShift&1 != 0,
		Open:        counts&countsOpenBit != 0,
	}
	// A count at its field's cap may have been clamped there (packCounts):
	// it reads as a lower bound. (Searched is completed from the node's
	// child rows where it can be: Store.complete.)
	n.GeneratedAtLeast = n.Generated >= maxCountStored
	n.CutIndexAtLeast = n.CutIndex >= maxCountStored-1
	if n.Kind == engine.KindQS && n.QSPly < 0 {
		// Schema version 1 stored no QS ply: its QS depth was minus it.
		n.QSPly = max(-n.Depth, 0)
	}
	if stand != nil {
		n.StandPat, n.HasStandPat = engine.Score(*stand), true
	}
	return n
}

// rowOf encodes a Node the way the recorder would have.
func rowOf(n Node) row {
	e := engine.EnterInfo{Ply: n.Ply, Depth: n.Depth, Kind: n.Kind, QSLevel: n.QSLevel, QSPly: n.QSPly, InCheck: n.InCheck}
	l := engine.LeaveInfo{Bound: n.Bound, Cause: n.Cause, Extension: n.Extension}
	return row{
		id: n.ID, parent: n.Parent, size: n.SubtreeSize,
		info:   packLeave(packEnter(&e), &l, n.Incomplete),
		counts: packCounts(n.Generated, n.Searched, n.CutIndex),
		alpha:  int32(n.Alpha), beta: int32(n.Beta), score: int32(n.Score),
		stand: int32(n.StandPat), hasStand: n.HasStandPat,
		move: uint32(n.Move), best: uint32(n.Best), iteration: int32(n.Iteration), qsPly: int32(n.QSPly), valid: true,
	}
}
