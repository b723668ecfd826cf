package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestJSONConsistent runs every command that has --json over a small
// trace whose runs differ in what applies to them (an EPD id or none, a
// stop cause or none, a recording filter or none, another engine's run
// with a score that is only a bound), decodes each output generically and
// holds it to the CLI's convention:
//   - every key is snake_case (the keys of data maps aside: a rule's or a
//     cause's name, a stored options object);
//   - no value is a string holding a number or a bool ("16", "false");
//   - an object kind (a command's runs, nodes, summaries, ...) has the same
//     keys whatever its data: a key that does not apply is null, not left
//     out;
//   - a key has one type in every command, null aside (a count and a flag
//     do not share a name; twoTypes lists the keys that still do, and a
//     key kept for scripts under its old name, deprecatedKeys, equals the
//     key that replaced it);
//   - a fact about a run has one key and one value wherever a command
//     prints that run (runs --json is the reference), and a fact about a
//     node likewise (export --format json is the reference); a key kept
//     under an old name for scripts sits beside the fact's key with the
//     same value.
//
// view --json is left out: it prints on leaving the viewer, which needs a
// terminal (TestViewInTmux). uci has no --json.
func TestJSONConsistent(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.trace")
	cmpFile := filepath.Join(dir, "cmp.trace")
	epd := writeFile(t, "j.epd", kiwipete+" id \"json.kiwi\";\n"+
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"json.start\";\n")
	// Another engine's searches: the first ends on a fail-high probe (its
	// score +40 is a lower bound; its root generated more moves than a file
	// keeps, g=300), the second's score is exact.
	bound := writeFile(t, "bound.hzt", "HZT 1\nengine Sunfish\nposition startpos\nE - 1 29 30 i=1\nE e2e4 0 -30 -29\nS -40\nL -40\nL 40 g=300\n"+
		"E - 2 39 40 i=2\nE d2d4 1 -40 -39\nL -50\nL 50\nend best=e2e4\n")
	exact := writeFile(t, "exact.hzt", "HZT 1\nengine Sunfish\nposition startpos\nE - 1 -100 100 i=1\nE e2e4 0 -100 100\nS -35\nL -35\nL 35\nend best=e2e4\n")

	type jsonCase struct {
		kind string   // the object kinds' prefix: cases of one kind print the same objects
		args []string // horizon's arguments
		// runFile and runAt, when set: the objects at path runAt are runs of
		// runFile, named by their key "run" or, for runs' own objects and
		// export's run, "id".
		runFile, runAt string
	}
	cases := []jsonCase{
		// The recording commands first: the others read what they write.
		// Runs 1-4: EPD records (epd_id), 1 and 3 captures, 2 and 4 see.
		{"trace", []string{"trace", "--epd", epd, "--depth", "2", "--qs", "captures,see", "-o", file, "--json"}, file, "[]"},
		// Run 5: stopped by its node limit (stop_cause nodes).
		{"trace", []string{"trace", "--fen", "startpos", "--depth", "4", "--nodes", "300", "--qs", "captures", "-o", file, "--json"}, file, "[]"},
		// Run 6: a recording filter.
		{"trace", []string{"trace", "--fen", "startpos", "--depth", "2", "--qs", "captures", "--last-iteration", "-o", file, "--json"}, file, "[]"},
		// Runs 7 and 8: another engine's.
		{"trace", []string{"import", bound, "-o", file, "--json"}, file, "[]"},
		{"trace", []string{"import", exact, "-o", file, "--json"}, file, "[]"},
		{"runs", []string{"runs", file, "--json"}, file, "[]"},
		{"check", []string{"check", file, "--json"}, file, "[]"},
		{"stats", []string{"stats", file, "--json"}, file, "[]"},
		{"hotspots", []string{"hotspots", file, "--json"}, file, "[]"},
		{"hotspots", []string{"hotspots", file, "--by", "growth", "--json"}, file, "[]"},
		{"diff", []string{"diff", file, "--run", "1", "--run", "2", "--json"}, file, "a"},
		{"diff", []string{"diff", file, "--run", "1", "--run", "2", "--json"}, file, "b"},
		{"diff", []string{"diff", file, "--run", "3", "--run", "6", "--json"}, file, "a"},
		{"diff", []string{"diff", file, "--run", "3", "--run", "6", "--json"}, file, "b"},
		{"diff", []string{"diff", file, "--run", "7", "--run", "8", "--json"}, file, "a"},
		{"diff", []string{"diff", file, "--run", "7", "--run", "8", "--json"}, file, "b"},
		{"export", []string{"export", file, "--run", "3", "--node", "0", "--max-nodes", "10000", "--format", "json"}, file, "run"},
		{"export", []string{"export", file, "--run", "4", "--node", "0", "--max-nodes", "10000", "--format", "json"}, file, "run"},
		{"export", []string{"export", file, "--run", "1", "--max-nodes", "30", "--format", "json"}, file, "run"},
		{"export", []string{"export", file, "--run", "1", "--node", "0", "--qs-only", "--max-nodes", "30", "--format", "json"}, file, "run"},
		{"export", []string{"export", file, "--run", "7", "--format", "json"}, file, "run"},
		{"compare", []string{"compare", "--epd", epd, "--depth", "2", "--nodes", "2000", "--qs", "captures,see", "--trace", cmpFile, "--json"}, cmpFile, "positions[]"},
		{"compare", []string{"compare", "--fen", "startpos", "--depth", "2", "--qs", "captures", "--json"}, "", ""},
		{"runs", []string{"runs", cmpFile, "--json"}, cmpFile, "[]"},
		{"search", []string{"search", "--epd", epd, "--depth", "2", "--qs", "captures", "--json"}, "", ""},
		{"search", []string{"search", "--fen", "startpos", "--depth", "2", "--json"}, "", ""},
		{"perft", []string{"perft", "--fen", "startpos", "--depth", "2", "--json"}, "", ""},
		{"perft", []string{"perft", "--fen", "startpos", "--depth", "1", "--divide", "--json"}, "", ""},
		{"perft", []string{"perft", "--epd", epd, "--depth", "1", "--json"}, "", ""},
		{"variants", []string{"variants", "--json"}, "", ""},
		{"bench", []string{"bench", "--fen", kiwipete, "--depth", "1", "--qs", "see", "--stockfish", "none", "--json"}, "", ""},
		{"qsbench", []string{"qsbench", "--epd", filepath.Join("..", "..", "qsbench", "data", "qsbench.epd"), "--limit", "4", "--repeat", "1", "--qs", "see,none", "--worst", "1", "--json"}, "", ""},
		{"qsbench", []string{"qsbench", "--epd", filepath.Join("..", "..", "qsbench", "data", "qsbench.epd"), "--limit", "4", "--repeat", "1", "--qs", "see,none", "--second", "none", "--json"}, "", ""},
	}
	outs := map[string]any{} // by the command line: a command shared by cases runs once
	keySets := map[string]map[string][]string{}
	keyTypes := map[string]map[string]string{} // by key: JSON type -> where first seen
	var runObjs []runObj
	for _, c := range cases {
		line := strings.Join(c.args, " ")
		v, ok := outs[line]
		if !ok {
			code, out, errOut := runCLI(t, "", c.args...)
			if code != 0 {
				t.Fatalf("horizon %s: exit %d: %s", line, code, errOut)
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("horizon %s: %v\n%s", line, err, out)
			}
			outs[line] = v
			walkJSON(t, "horizon "+line, c.kind, "", v, keySets)
			walkTypes(t, "horizon "+line, c.kind, "", v, keyTypes)
		}
		if c.runAt != "" {
			objs := at(v, c.runAt)
			if len(objs) == 0 {
				t.Errorf("horizon %s: no run objects at %s", line, c.runAt)
			}
			for _, o := range objs {
				runObjs = append(runObjs, runObj{where: "horizon " + line + " " + c.runAt, kind: c.kind, file: c.runFile, obj: o})
			}
		}
		if c.kind == "search" {
			for _, o := range at(v, "") {
				runObjs = append(runObjs, runObj{where: "horizon " + line, kind: c.kind, file: file, obj: o})
			}
		}
	}

	// Keys of one object kind do not depend on the data.
	kinds := make([]string, 0, len(keySets))
	for k := range keySets {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		sets := keySets[kind]
		if len(sets) > 1 {
			var desc []string
			for keys, where := range sets {
				desc = append(desc, fmt.Sprintf("{%s} in %s", keys, where[0]))
			}
			sort.Strings(desc)
			t.Errorf("%s objects differ in their keys (a key that does not apply must be null, not left out):\n  %s", kind, strings.Join(desc, "\n  "))
		}
	}

	// A key has one type in every command (null aside): a count and a
	// flag, or a label and a number, do not share a name. The keys that
	// still do are listed in twoTypes, and the list stays true.
	for _, k := range sortedKeys(keyTypes) {
		types := keyTypes[k]
		if _, known := twoTypes[k]; known != (len(types) > 1) {
			var desc []string
			for _, ty := range sortedKeys(types) {
				desc = append(desc, ty+" in "+types[ty])
			}
			t.Errorf("key %q has %d types (listed in twoTypes: %v): %s", k, len(types), known, strings.Join(desc, "; "))
		}
	}
	for k := range twoTypes {
		if keyTypes[k] == nil {
			t.Errorf("twoTypes lists %q, which no command printed", k)
		}
	}

	// A run's facts agree with runs --json, under one key.
	ref := map[string]map[string]any{} // by file and run id
	for _, f := range []string{file, cmpFile} {
		for _, o := range at(outs["runs "+f+" --json"], "[]") {
			ref[f+"#"+fmt.Sprint(o["id"])] = o
		}
	}
	compared := map[string]int{}
	for _, ro := range runObjs {
		r := ro.reference(t, ref)
		if r == nil {
			continue
		}
		checkRunFacts(t, ro, r)
		compared[ro.kind]++
	}
	for _, c := range cases {
		if (c.runAt != "" || c.kind == "search") && compared[c.kind] == 0 {
			t.Errorf("no %s object was checked against runs --json", c.kind)
		}
	}

	// A node's facts agree with export's, under one key: diff's nodes and
	// the hotspot lists' against the exports of the whole runs 3 and 4.
	nodes := map[string]map[string]any{} // by run and node id
	for _, run := range []string{"3", "4"} {
		for _, n := range at(outs["export "+file+" --run "+run+" --node 0 --max-nodes 10000 --format json"], "nodes[]") {
			nodes[run+"#"+fmt.Sprint(n["id"])] = n
		}
	}
	d := outs["diff "+file+" --run 3 --run 6 --json"]
	checked := 0
	for _, path := range []string{"changed_nodes[].a", "first_difference.a"} {
		for _, n := range at(d, path) {
			checked += checkNodeFacts(t, "diff --run 3 --run 6 "+path, n, "id", nodes["3#"+fmt.Sprint(n["id"])], nodeAliases)
		}
	}
	for _, h := range at(outs["hotspots "+file+" --json"], "[]") {
		if h["run"] != float64(3) {
			continue
		}
		for _, n := range at(h, "hotspots[]") {
			checked += checkNodeFacts(t, "hotspots --json", n, "node", nodes["3#"+fmt.Sprint(n["node"])], map[string]string{"path_san": "path"})
		}
	}
	if checked == 0 {
		t.Errorf("no node of diff or hotspots was checked against export's")
	}
}

// jsonKey is a key in the CLI's form: snake_case.
var jsonKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// numberOrBool is a string a script would have to parse: a number or a
// bool as text.
var numberOrBool = regexp.MustCompile(`^(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false)$`)

// dataMaps are the keys whose objects are keyed by data, not by the
// CLI's vocabulary: a run's stored options and limits (another engine's
// hold what its stream declared), check's counts by rule name and
// search's by cause name, as the text names them.
var dataMaps = map[string]bool{"options": true, "limits": true, "by_rule": true, "cutoffs": true}

// walkJSON checks v's keys and strings and records each object's keys
// under its kind (kind and the path with array indexes dropped; a top
// array's elements are the kind itself, as search and perft print an
// object for one position and an array for several; diff's b is its a).
func walkJSON(t *testing.T, where, kind, path string, v any, keySets map[string]map[string][]string) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k, e := range v {
			keys = append(keys, k)
			if !jsonKey.MatchString(k) {
				t.Errorf("%s: key %q at %s is not snake_case", where, k, path)
			}
			if dataMaps[k] {
				if m, ok := e.(map[string]any); ok {
					for mk, mv := range m {
						walkValues(t, where, path+"."+k+"."+mk, mv)
					}
					continue
				}
			}
			sub := k
			if k == "b" {
				sub = "a"
			}
			walkJSON(t, where, kind, path+"."+sub, e, keySets)
		}
		sort.Strings(keys)
		k := kind + path
		if keySets[k] == nil {
			keySets[k] = map[string][]string{}
		}
		set := strings.Join(keys, " ")
		keySets[k][set] = append(keySets[k][set], where)
	case []any:
		p := path + "[]"
		if path == "" {
			p = ""
		}
		for _, e := range v {
			walkJSON(t, where, kind, p, e, keySets)
		}
	default:
		walkValues(t, where, path, v)
	}
}

// deprecatedKeys are keys kept under their old name for scripts, by the
// object kind and path (walkJSON's, with the key) where they are printed,
// each with the key that carries its fact now, whose value it must equal.
// Each was a key of two types: the one-type rule leaves them out, and the
// commands' --json help names them deprecated.
var deprecatedKeys = map[string]string{
	"compare.variants[].solved":  "solved_count",  // a position's solved is its flag
	"qsbench.variants[].stopped": "stopped_count", // a worst row's stopped is its run's flag
	"trace.position":             "label",         // compare's position is the record's number
}

// twoTypes are the keys that still have two types in the CLI's JSON, each
// with what its types mean. They are not deprecated yet: a fix gives
// one of the meanings a key of its own, as solved_count did.
var twoTypes = map[string]string{
	"id":        "a run's or a node's number (runs, export); an EPD record's id in search, perft and qsbench's worst rows",
	"nodes":     "a count of nodes (runs, trace, ...); export's array of node objects",
	"positions": "compare's array of position rows; a count of positions (compare's variants, bench, qsbench)",
	"pv":        "a run's principal variation, moves (runs, search); export's node flag: on the principal variation",
	"run":       "a run's number where an object refers to it; export's run object",
	"summary":   "variants' one-line description; export's node index into its summaries",
	"top":       "export's top node id; diff's array of the biggest subtrees",
}

// walkTypes records the JSON type of every key's values under v, by key
// name, with where and at which path a type was first seen, and checks
// that a deprecated key equals the key that replaced it. The keys of data
// maps (dataMaps) are data, not the CLI's vocabulary, and are left out.
func walkTypes(t *testing.T, where, kind, path string, v any, types map[string]map[string]string) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if dataMaps[k] {
				continue
			}
			if now, ok := deprecatedKeys[kind+path+"."+k]; ok {
				if cur, has := v[now]; !has || !reflect.DeepEqual(cur, e) {
					t.Errorf("%s: deprecated %s%s.%s is %v, but %s is %v (present %v)", where, kind, path, k, e, now, cur, has)
				}
				continue
			}
			if ty := jsonType(e); ty != "null" {
				if types[k] == nil {
					types[k] = map[string]string{}
				}
				if _, ok := types[k][ty]; !ok {
					types[k][ty] = where + " at " + path + "." + k
				}
			}
			walkTypes(t, where, kind, path+"."+k, e, types)
		}
	case []any:
		p := path + "[]"
		if path == "" {
			p = "" // a top array's elements are the kind itself, as in walkJSON
		}
		for _, e := range v {
			walkTypes(t, where, kind, p, e, types)
		}
	}
}

// jsonType names the type of a decoded JSON value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// walkValues checks that no string under v is a number or a bool.
func walkValues(t *testing.T, where, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case string:
		if numberOrBool.MatchString(v) {
			t.Errorf("%s: %s is the string %q, not a typed value", where, path, v)
		}
	case []any:
		for _, e := range v {
			walkValues(t, where, path+"[]", e)
		}
	case map[string]any:
		for k, e := range v {
			walkValues(t, where, path+"."+k, e)
		}
	}
}

// at returns the objects at path in v: "" (v itself, or its elements
// when it is an array), "[]" (an array's elements), "a", "positions[]",
// "[].hotspots[]", "changed_nodes[].a".
func at(v any, path string) []map[string]any {
	if path == "" {
		if l, ok := v.([]any); ok {
			return at(l, "[]")
		}
	}
	vals := []any{v}
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			continue
		}
		name, arr := strings.CutSuffix(part, "[]")
		var next []any
		for _, x := range vals {
			if name != "" {
				m, _ := x.(map[string]any)
				x = m[name]
			}
			if arr {
				l, _ := x.([]any)
				next = append(next, l...)
			} else {
				next = append(next, x)
			}
		}
		vals = next
	}
	var out []map[string]any
	for _, x := range vals {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// runObj is an object a command prints about one run.
type runObj struct {
	where, kind, file string
	obj               map[string]any
}

// reference finds runs --json's object of the run o is about: by file and
// run id, or for a search (which records no run) by EPD id and variant
// among the runs of its file, whose first command traced the same
// records at the same depth.
func (o runObj) reference(t *testing.T, ref map[string]map[string]any) map[string]any {
	t.Helper()
	if o.kind == "search" {
		for k, r := range ref {
			if strings.HasPrefix(k, o.file+"#") && r["epd_id"] != nil && r["epd_id"] == o.obj["epd_id"] && r["variant"] == o.obj["variant"] {
				return r
			}
		}
		if o.obj["epd_id"] == nil && o.obj["fen"] != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
			t.Errorf("%s: the search of an EPD record has no epd_id: %v", o.where, o.obj)
		}
		return nil
	}
	idKey := "run"
	if o.kind == "runs" || o.kind == "export" {
		idKey = "id"
	}
	id, ok := o.obj[idKey]
	if !ok {
		t.Errorf("%s: the run object has no %s: %v", o.where, idKey, o.obj)
		return nil
	}
	if id == nil { // compare without --trace
		return nil
	}
	r := ref[o.file+"#"+fmt.Sprint(id)]
	if r == nil {
		t.Errorf("%s: run %v is not in runs --json of %s", o.where, id, o.file)
	}
	return r
}

// runFacts are the keys of a run's facts as runs --json gives them; a
// command that prints a fact prints it under that key, with that value.
var runFacts = []string{"fen", "epd_id", "variant", "engine", "fail_hard", "options", "status", "stop_cause", "filter",
	"depth", "nodes", "qs_nodes", "qs_share", "rows", "max_ply", "max_qs_ply", "best_move", "best_san", "score", "score_bound", "pv", "elapsed_ms"}

// notRunFacts are keys whose value may equal one of the run's facts
// while naming another fact: trace's and compare's label name the
// position as the text does (the EPD id, else the FEN), and a search's
// ponder move is the PV's second move, never the best move.
var notRunFacts = map[string]bool{"label": true, "ponder": true}

// runAliases are keys kept under an old name for scripts, by object kind:
// each sits beside the fact's key, with the same value. search's id was
// its EPD record's id before every run object called it epd_id; trace's
// position was its label (compare's position is the record's place in
// the file).
var runAliases = map[string]map[string]string{"search": {"id": "epd_id"}, "trace": {"position": "label"}}

// nodeAliases are runAliases for node objects: diff's nodes is the
// subtree size.
var nodeAliases = map[string]string{"nodes": "subtree_size"}

// uniqueFacts are the run facts whose values are distinctive enough that
// a key holding the same value elsewhere in the object is that fact under
// another name.
var uniqueFacts = []string{"fen", "epd_id", "best_move", "best_san", "stop_cause", "filter", "score_bound"}

func checkRunFacts(t *testing.T, o runObj, r map[string]any) {
	t.Helper()
	facts := map[string]bool{}
	for _, k := range runFacts {
		facts[k] = true
		v, ok := o.obj[k]
		if !ok || k == "elapsed_ms" && (o.kind == "compare" || o.kind == "search") {
			// Another search of the same position, or compare's own
			// timing of its search, where the run's time is the
			// recorder's: the same tree, not the same clock.
			continue
		}
		if k == "rows" && o.kind == "check" {
			// rows checked: the run's rows when it was read to the end
			if o.obj["error"] != nil {
				continue
			}
		}
		if rv, has := r[k]; !has {
			t.Errorf("%s: run %v has %s, which runs --json lacks", o.where, r["id"], k)
		} else if !reflect.DeepEqual(v, rv) {
			t.Errorf("%s: run %v: %s is %s, runs --json says %s", o.where, r["id"], k, jsonText(v), jsonText(r[k]))
		}
	}
	for k, v := range o.obj {
		if facts[k] || notRunFacts[k] || k == "id" && o.kind != "search" {
			continue
		}
		if canon, ok := runAliases[o.kind][k]; ok {
			if cv, has := o.obj[canon]; !has || !reflect.DeepEqual(cv, v) {
				t.Errorf("%s: %s (kept for scripts) is %s, but %s is %s", o.where, k, jsonText(v), canon, jsonText(cv))
			}
			continue
		}
		for _, f := range uniqueFacts {
			if s, ok := v.(string); ok && s != "" && s == r[f] {
				t.Errorf("%s: key %s holds the run's %s (%q): one fact, one key", o.where, k, f, s)
			}
		}
	}
}

// checkNodeFacts checks a node object n (named by its key idKey) against
// export's object of the same node, and returns 1 when it was checked.
func checkNodeFacts(t *testing.T, where string, n map[string]any, idKey string, ref map[string]any, aliases map[string]string) int {
	t.Helper()
	if ref == nil {
		t.Errorf("%s: node %v is not in export's nodes", where, n[idKey])
		return 0
	}
	for k, v := range n {
		if k == idKey {
			continue
		}
		if canon, ok := aliases[k]; ok {
			if cv, has := n[canon]; !has || !reflect.DeepEqual(cv, v) {
				t.Errorf("%s: node %v: %s (kept for scripts) is %s, but %s is %s", where, n[idKey], k, jsonText(v), canon, jsonText(cv))
			}
			continue
		}
		rv, ok := ref[k]
		if !ok {
			if nodeOnly[k] {
				continue
			}
			t.Errorf("%s: node %v has %s, which export's node object does not: one fact, one key", where, n[idKey], k)
			continue
		}
		if !reflect.DeepEqual(v, rv) {
			t.Errorf("%s: node %v: %s is %s, export says %s", where, n[idKey], k, jsonText(v), jsonText(rv))
		}
	}
	return 1
}

// nodeOnly are keys of a hotspot that are no fact of its node but of its
// place in the list or the tree: its cause, share of the run, growth, and
// path with the visit and searches of each move and of its iteration's
// root (keyed as diff and check key them, trace.PlaceFields), and its
// place as they print it; what explain finds in its subtree (its top
// cause and that cause's share) and the hotspots inside it (parts).
var nodeOnly = map[string]bool{"cause": true, "share": true, "growth": true, "path": true, "visits": true, "searches": true,
	"iteration_visit": true, "iteration_searches": true, "place": true, "top_cause": true, "top_cause_share": true, "parts": true}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestJSONCountRowsKeyedByTheirFact: a list of counts by a dimension keys
// its rows by that dimension's key, the fact's key everywhere: plies by
// ply, qs_plies by qs_ply, qs_levels by qs_level, iterations by iteration,
// in stats and diff alike. qs_plies and qs_levels rows both said "level",
// so a QS ply read as a QS level, a fact of its own (threshold QS).
func TestJSONCountRowsKeyedByTheirFact(t *testing.T) {
	file := filepath.Join(t.TempDir(), "levels.trace")
	cliJSON(t, new(any), "trace", "--fen", kiwipete, "--depth", "2", "--qs", "threshold,captures+qs-levels=2", "-o", file, "--json")
	var stats, diff any
	cliJSON(t, &stats, "stats", file, "--json")
	cliJSON(t, &diff, "diff", file, "--run", "1", "--run", "2", "--json")
	want := map[string]string{"plies": "ply", "qs_plies": "qs_ply", "qs_levels": "qs_level", "iterations": "iteration"}
	for _, c := range []struct {
		where string
		objs  []map[string]any
	}{{"stats --json", at(stats, "[]")}, {"diff --json", at(diff, "")}} {
		seen := 0
		for _, o := range c.objs {
			for list, key := range want {
				for _, row := range at(o, list+"[]") {
					if _, ok := row[key]; !ok {
						t.Errorf("%s: a row of %s has no key %s: %v", c.where, list, key, row)
					}
					// "level", the rows' key before, stays for scripts.
					if strings.HasPrefix(list, "qs_") && row["level"] != row[key] {
						t.Errorf("%s: a row of %s: level (kept for scripts) is %v, %s %v", c.where, list, row["level"], key, row[key])
					}
					seen++
				}
			}
		}
		if seen == 0 {
			t.Errorf("%s: no rows of counts", c.where)
		}
	}
	if len(at(stats, "[]")) != 2 || len(at(stats, "[].qs_levels[]")) == 0 || len(at(diff, "qs_levels[]")) == 0 {
		t.Fatalf("no QS level rows to check: stats %v", stats)
	}
}
