package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// QSMoves selects which moves a quiescence node searches.
type QSMoves uint8

// Quiescence move sets.
const (
	QSNone       QSMoves = iota // no QS: the static evaluation at the horizon
	QSCaptures                  // captures and promotions
	QSRecaptures                // captures to the square of the last move only
	QSBeal                      // captures, promotions and pawn pushes to the 7th rank
)

var qsMovesNames = []string{"none", "captures", "recaptures", "beal"}

// Ordering selects how captures are ordered.
type Ordering uint8

// Capture orderings.
const (
	OrderMVVLVA   Ordering = iota // victimValue*8 - attackerType (000): most valuable victim, then least valuable attacker
	OrderTutorial                 // victim + (victim - attacker when the victim is worth more) + attacker action value (003)
)

var orderingNames = []string{"mvv-lva", "tutorial"}

// Options are the switches of one search: every technique a debugger may
// want to turn on or off. Presets (Variants) set them; users adjust them.
type Options struct {
	Variant string // the preset these options started from

	// Quiescence search.
	QSMoves      QSMoves
	Ordering     Ordering
	StandPat     bool // stand pat on the static eval in QS
	SEEPrune     bool // skip captures that lose material by SEE
	DeltaPrune   bool // skip captures that cannot lift the score to alpha
	DeltaMargin  int  // centipawns added to the gain in delta pruning
	QSChecks     bool // quiet checking moves at the first QS ply
	QSEvasions   bool // in check in QS: no stand pat, search every evasion (mate is seen)
	QSLevels     int  // threshold QS: levels 0..QSLevels; 0 turns the multi-level scheme off
	Threshold    int  // threshold QS: the threshold argument given from full-width nodes (0 = infinite)
	RecaptureExt bool // recaptures to the last move's square cost no depth anywhere
	DelayPenalty bool // micro-Max delayed-gain penalty: v -= v > eval
	Unified      bool // iterative deepening inside every node, QS as its depth<=0 iteration

	// Full-width search.
	PVS      bool // principal variation search (null-window searches after the first move)
	TT       bool // transposition table
	HashMB   int  // transposition table size in MiB
	CheckExt bool // one check extension per path at the horizon (003)
	Killers  bool
	History  bool
	MaxQSPly int // safety limit on QS depth (plies past the horizon)
}

// Variant is a named preset of Options.
type Variant struct {
	Name    string
	Source  string // the document in shared/seeds it follows
	Summary string
	// Departs says where the preset departs from its document, quoting
	// the document's words, or where the document is ambiguous which
	// reading Horizon takes; "" for a preset that follows no document.
	// It is the one home of these facts: 'horizon variants' prints it.
	Departs string
	Options Options
}

func base() Options {
	return Options{QSMoves: QSCaptures, Ordering: OrderMVVLVA, StandPat: true, DeltaMargin: 200,
		PVS: true, TT: true, HashMB: 16, Killers: true, History: true, MaxQSPly: 64}
}

// variants lists the presets. Each one cites its source document in
// ../shared/seeds/ and says in Departs where Horizon departs from it. Every
// QS of Horizon is fail-soft: a node returns the best score it saw, so a
// bound says what was searched.
var variants = []Variant{
	// none: no quiescence search at all; the horizon node returns its static
	// evaluation. Not from a document: it is the baseline that shows the
	// horizon effect the other variants exist to cure.
	{"none", "-", "static evaluation at the horizon, no QS (shows the horizon effect)", "",
		func() Options { o := base(); o.QSMoves = QSNone; o.StandPat = false; return o }()},
	// captures follows 003_484d058c518ad991.txt: captures only with stand
	// pat, ordered by victim value, plus victim minus attacker when the
	// victim is worth more, plus the attacker's "action value", the
	// tutorial's per-piece bonus: Horizon's values are pawn 6, knight and
	// bishop 3, rook 2, queen and king 1 (actionValue), so that among
	// equal victims the cheaper attacker is tried first, as 003 intends.
	// As in 003's search, a check at the horizon is extended by one ply,
	// once per path (check-ext).
	{"captures", "003_484d058c518ad991.txt", "all captures with stand pat, tutorial ordering (victim, victim-attacker, action value), one check extension at the horizon",
		"fail-soft, where 003 fails hard ('if (value >= beta) return beta;'); promotions and en passant " +
			"captures are searched too, though 003's EvaluateMovesQ keeps only moves onto an occupied square, " +
			"as no engine leaves them out of QS",
		func() Options { o := base(); o.Ordering, o.CheckExt = OrderTutorial, true; return o }()},
	// mvv-lva follows the first part of 000_50fd9a7f31b2de46.txt: stand pat,
	// captures only, sort key victimValue - attackerType.
	{"mvv-lva", "000_50fd9a7f31b2de46.txt", "captures with stand pat, MVV/LVA key victimValue - attackerType",
		"promotions are searched with the captures (000: 'if(depth == 0 && !IsCapture(move)) continue;')",
		base()},
	// recapture follows micro-Max 3.2 (002_199d092b19a605b2.txt): QS searches
	// only captures to the square of the last move, and such recaptures do
	// not reduce depth anywhere in the tree, which also gives recapture
	// extensions in the full-width part. DelayPenalty is micro-Max's
	// delayed-gain penalty (v -= v > e), on by default as in micro-Max. As
	// micro-Max searches each reply with alpha -l-(l>e), one below the
	// usual -beta, Horizon widens the child's window to beta+1 when beta >
	// eval, so that a reply that only proves ">= beta" still fails high
	// after the penalty; PVS decides on a re-search by the penalised score,
	// and a scout's subtree stays non-PV though its windows widen. Like
	// micro-Max, the QS is one-sided (no test of the opponent's threats).
	{"recapture", "002_199d092b19a605b2.txt", "micro-Max: only recaptures to the last move's square, at no depth cost anywhere",
		"Horizon's search (PVS, killers, history, its hash table) and PeSTO eval replace micro-Max's single " +
			"search function and eval, which have none of PVS, killers and history; mate scores are exempt from " +
			"'v-=v>e' (Horizon's mates carry their distance, which micro-Max gets from the penalty itself); " +
			"Horizon's QS neither probes nor stores the hash table, where micro-Max's one search function " +
			"does so in every node, its recapture-only QS iterations too ('lookup pos. in hash table', " +
			"'if(v>=l|X&S&&v<=q|X&8)return v;', 'store in hash')",
		func() Options {
			o := base()
			o.QSMoves, o.RecaptureExt, o.DelayPenalty = QSRecaptures, true, true
			return o
		}()},
	// beal follows Rival's QS after Beal (1990), 004_0ae7eb7eda2d0f43.txt:
	// at every QS ply the side to move may make no move (stand pat), and
	// captures plus advanced pawn moves are searched.
	{"beal", "004_0ae7eb7eda2d0f43.txt", "stand pat plus captures and advanced pawn moves (pushes to the 7th rank, promotions)",
		"'moves of advanced pawns' are taken as pushes to the 7th rank and promotions; 'forking moves', " +
			"which 004 says 'require more work', are not searched",
		func() Options { o := base(); o.QSMoves = QSBeal; return o }()},
	// threshold follows hgm's "IID in QS (again)", 001_e9a3077e1f6ab21e.txt:
	// QS levels 0..QSLevels; a capture whose estimated gain (victim value, or
	// victim minus attacker when the victim is protected) is <= the threshold
	// passed down (the value of the piece captured on the previous ply;
	// infinite from full-width nodes) is extended (costs no level), others
	// cost a level; with no level left such a capture is an auto-fail-high;
	// non-extended captures are searched before extended ones. Horizon
	// iterates the levels 0..L at each QS root itself and stops as soon as a
	// pass met no auto-fail-high (its result is then valid at every higher
	// level), so each QS tree is self-contained and traceable with the hash
	// table off.
	{"threshold", "001_e9a3077e1f6ab21e.txt", "multi-level QS: cheap captures extended, others cost a level, auto-fail-high when levels run out",
		"fail-soft, where 001 fails hard ('return beta;', 'return alpha;'); an auto-fail-high scores beta, " +
			"as there; the levels are iterated at each QS root, not from the root with the hash table's 'depth " +
			"bootstrapping', so a later pass re-searches the subtrees that met no auto-fail-high in the pass " +
			"before (about 5% of the variant's nodes on the audit's traces): QS nodes neither probe nor store " +
			"the hash table, where 001 would keep that 'sub-trees that did not run into any auto-fail-highs ... " +
			"are immediately valid to depth = QS = 4'",
		func() Options { o := base(); o.QSLevels = 4; return o }()},
	// unified follows the second part of 000_50fd9a7f31b2de46.txt: every node
	// runs an iterative-deepening loop from the depth the hash table already
	// vouches for (depth bootstrapping) up to max(depth, 1); QS is the
	// depth<=0 iteration, with stand pat in place of -INF; a hash move is
	// used in QS only when it is a capture; a move that raises alpha is put in
	// front for the next iteration; the hash table is written after every
	// iteration. As in 000, every move gets the full window (pvs off); PVS,
	// the extensions and the QS pruning switches apply on top when set.
	{"unified", "000_50fd9a7f31b2de46.txt", "iterative deepening in every node, QS as its depth<=0 iteration, hash move in QS only if a capture",
		"children are searched at iterDepth-1, not the listing's 'depth-1', which would repeat one search; " +
			"the QS iteration is stored in the hash table at depth 0, where the listing's 'HashStore(iterDepth, ...)' " +
			"would store it as a 1-ply search, which 000 says it is not ('the first (and only) depth iteration is " +
			"only performed half')",
		func() Options { o := base(); o.Unified, o.PVS = true, false; return o }()},
	// see is not from the documents: it is a modern reference as strong
	// engines do it (MVV/LVA, SEE pruning of losing captures, delta pruning,
	// check evasions in QS, quiet checks at the first QS ply).
	{"see", "-", "modern reference: MVV/LVA, SEE pruning, delta pruning, evasions in check, quiet checks at the first QS ply", "",
		func() Options {
			o := base()
			o.SEEPrune, o.DeltaPrune, o.QSChecks, o.QSEvasions = true, true, true, true
			return o
		}()},
}

// Variants returns the named presets in a fixed order.
func Variants() []Variant { return append([]Variant(nil), variants...) }

// VariantNames returns the preset names.
func VariantNames() []string {
	n := make([]string, len(variants))
	for i, v := range variants {
		n[i] = v.Name
	}
	return n
}

// VariantOptions returns the options of the named preset.
func VariantOptions(name string) (Options, error) {
	for _, v := range variants {
		if v.Name == name {
			o := v.Options
			o.Variant = name
			return o, nil
		}
	}
	return Options{}, fmt.Errorf("unknown QS variant %q (valid: %s)", name, strings.Join(VariantNames(), ", "))
}

// variantList is the comma-separated list of ParseVariantSpecs: each item,
// trimmed, through parse (empty ones skipped); none given is an error
// listing the presets as valid says.
func variantList(list, valid string, parse func(string) (Options, error)) ([]Options, error) {
	var out []Options
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		o, err := parse(item)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no QS variant given (%s: %s)", valid, strings.Join(VariantNames(), ", "))
	}
	return out, nil
}

// OptionSpec describes one switch of Options so that command lines, UCI
// and trace files can name and set it.
type OptionSpec struct {
	Name  string // flag name, e.g. "qs-levels"
	Kind  string // "bool", "int" or "enum"
	Enum  []string
	Usage string
	Min   int
	Max   int
	get   func(*Options) string
	set   func(*Options, string) error
}

func boolSpec(name, usage string, f func(*Options) *bool) OptionSpec {
	return OptionSpec{Name: name, Kind: "bool", Usage: usage,
		get: func(o *Options) string { return strconv.FormatBool(*f(o)) },
		set: func(o *Options, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("option %s: %q is not true or false", name, v)
			}
			*f(o) = b
			return nil
		}}
}

func intSpec(name, usage string, lo, hi int, f func(*Options) *int) OptionSpec {
	return OptionSpec{Name: name, Kind: "int", Usage: usage, Min: lo, Max: hi,
		get: func(o *Options) string { return strconv.Itoa(*f(o)) },
		set: func(o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return fmt.Errorf("option %s: %q is not a number from %d to %d", name, v, lo, hi)
			}
			*f(o) = n
			return nil
		}}
}

func enumSpec(name, usage string, names []string, f func(*Options) *uint8) OptionSpec {
	return OptionSpec{Name: name, Kind: "enum", Enum: names, Usage: usage,
		get: func(o *Options) string { return names[*f(o)] },
		set: func(o *Options, v string) error {
			for i, n := range names {
				if n == v {
					*f(o) = uint8(i)
					return nil
				}
			}
			return fmt.Errorf("option %s: %q is not one of %s", name, v, strings.Join(names, ", "))
		}}
}

var optionSpecs = []OptionSpec{
	enumSpec("qs-moves", "QS move set", qsMovesNames, func(o *Options) *uint8 { return (*uint8)(&o.QSMoves) }),
	enumSpec("qs-order", "capture ordering", orderingNames, func(o *Options) *uint8 { return (*uint8)(&o.Ordering) }),
	boolSpec("stand-pat", "stand pat on the static eval in QS", func(o *Options) *bool { return &o.StandPat }),
	boolSpec("see-prune", "skip captures that lose material by SEE", func(o *Options) *bool { return &o.SEEPrune }),
	boolSpec("delta", "delta pruning in QS", func(o *Options) *bool { return &o.DeltaPrune }),
	intSpec("delta-margin", "delta pruning margin in centipawns", 0, 2000, func(o *Options) *int { return &o.DeltaMargin }),
	boolSpec("qs-checks", "quiet checks at the first QS ply", func(o *Options) *bool { return &o.QSChecks }),
	boolSpec("qs-evasions", "in check in QS, search every evasion instead of standing pat", func(o *Options) *bool { return &o.QSEvasions }),
	intSpec("qs-levels", "threshold QS levels 0..N (0 = off)", 0, 16, func(o *Options) *int { return &o.QSLevels }),
	intSpec("qs-threshold", "threshold QS: threshold from full-width nodes (0 = infinite)", 0, 10000, func(o *Options) *int { return &o.Threshold }),
	boolSpec("recapture-ext", "recaptures to the last move's square cost no depth", func(o *Options) *bool { return &o.RecaptureExt }),
	boolSpec("delay-penalty", "micro-Max delayed-gain penalty v -= v > eval", func(o *Options) *bool { return &o.DelayPenalty }),
	boolSpec("unified", "iterative deepening in every node, QS as its depth<=0 iteration", func(o *Options) *bool { return &o.Unified }),
	boolSpec("pvs", "principal variation search", func(o *Options) *bool { return &o.PVS }),
	boolSpec("tt", "transposition table (off: no hash cutoffs or hash moves; every search starts with an empty table either way); QS probes and stores it only with unified", func(o *Options) *bool { return &o.TT }),
	intSpec("hash", "transposition table size in MiB", 1, 4096, func(o *Options) *int { return &o.HashMB }),
	boolSpec("check-ext", "one check extension per path at the horizon", func(o *Options) *bool { return &o.CheckExt }),
	boolSpec("killers", "killer move ordering", func(o *Options) *bool { return &o.Killers }),
	boolSpec("history", "history heuristic ordering", func(o *Options) *bool { return &o.History }),
	intSpec("max-qs-ply", "safety limit on QS plies past the horizon", 1, 100, func(o *Options) *int { return &o.MaxQSPly }),
}

// OptionSpecs returns the settable switches in a fixed order.
func OptionSpecs() []OptionSpec { return append([]OptionSpec(nil), optionSpecs...) }

// Get returns the option's value in o as text.
func (s OptionSpec) Get(o *Options) string { return s.get(o) }

// Set parses v into the option in o.
func (s OptionSpec) Set(o *Options, v string) error { return s.set(o, v) }

// Set sets the option called name; unknown names list the valid ones.
func (o *Options) Set(name, value string) error {
	for _, s := range optionSpecs {
		if s.Name == name {
			return s.set(o, value)
		}
	}
	names := make([]string, len(optionSpecs))
	for i, s := range optionSpecs {
		names[i] = s.Name
	}
	sort.Strings(names)
	return fmt.Errorf("unknown search option %q (valid: %s)", name, strings.Join(names, ", "))
}

// String returns "variant name=value,..." with every option, so that a run
// can be repeated exactly with ParseOptions.
func (o Options) String() string {
	parts := make([]string, 0, len(optionSpecs))
	for _, s := range optionSpecs {
		parts = append(parts, s.Name+"="+s.get(&o))
	}
	return o.Variant + " " + strings.Join(parts, ",")
}

// ParseOptions is the inverse of Options.String.
func ParseOptions(s string) (Options, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	o, err := VariantOptions(name)
	if err != nil {
		return o, err
	}
	if rest == "" {
		return o, nil
	}
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("option %q: want name=value", kv)
		}
		if err := o.Set(k, v); err != nil {
			return o, err
		}
	}
	return o, nil
}

// MarshalJSON writes the options as one object: "variant" and every switch
// by its flag name, booleans and numbers typed. Traces store it so that a
// run can be repeated exactly.
func (o Options) MarshalJSON() ([]byte, error) {
	m := map[string]any{"variant": o.Variant}
	for _, s := range optionSpecs {
		v := s.get(&o)
		switch s.Kind {
		case "bool":
			m[s.Name] = v == "true"
		case "int":
			n, _ := strconv.Atoi(v)
			m[s.Name] = n
		default:
			m[s.Name] = v
		}
	}
	return json.Marshal(m)
}

// JSON returns MarshalJSON's text.
func (o Options) JSON() string {
	b, _ := o.MarshalJSON() // a map of strings, bools and ints always encodes
	return string(b)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Options) UnmarshalJSON(b []byte) error {
	v, err := ParseOptionsJSON(string(b), "")
	if err != nil {
		return err
	}
	*o = v
	return nil
}

// ParseOptionsJSON reads an options object: the preset named by "variant"
// (or defVariant when the object has none), then every switch it sets, in
// name order. Values may be typed or strings. It reads what a trace
// recorded and does not call Validate: a run recorded with a combination
// refused today (an older Horizon ignored the switch) must still open;
// the checker reports such options (check.RuleOptions).
func ParseOptionsJSON(text, defVariant string) (Options, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return Options{}, fmt.Errorf("options %q: %v", text, err)
	}
	name, _ := m["variant"].(string)
	if name == "" {
		name = defVariant
	}
	o, err := VariantOptions(name)
	if err != nil {
		return o, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "variant" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := o.Set(k, fmt.Sprint(m[k])); err != nil {
			return o, err
		}
	}
	return o, nil
}
