package trace

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// newSchema returns a new trace file's store and its schema objects: type,
// name and the SQL SQLite keeps for each (comments inside a statement
// included).
func newSchema(t *testing.T) (*Store, []schemaObject) {
	t.Helper()
	s, _ := mustCreate(t)
	objs, err := queryRows(context.Background(), s, func(r *sql.Rows) (schemaObject, error) {
		var o schemaObject
		return o, r.Scan(&o.typ, &o.name, &o.sql)
	}, "SELECT type, name, coalesce(sql, '') FROM sqlite_schema ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	return s, objs
}

type schemaObject struct{ typ, name, sql string }

var (
	sqlComment = regexp.MustCompile(`--[^\n]*|/\*(?s:.*?)\*/`)
	sqlSpace   = regexp.MustCompile(`\s+`)
	sqlPunct   = regexp.MustCompile(` ?([(),]) ?`)
)

// stripComments is a statement without its comments, its spacing
// normalised: what the statement does.
func stripComments(s string) string {
	s = sqlSpace.ReplaceAllString(sqlComment.ReplaceAllString(s, " "), " ")
	return strings.TrimSpace(sqlPunct.ReplaceAllString(s, "$1"))
}

// TestSchemaEffect: the schema a new file gets, its statements without
// their comments and every table's columns (pragma table_info), is the one
// in testdata/schema.golden. Editing the migrations' comments must leave
// it as it is; a change of schema shows here (go test -update rewrites it).
func TestSchemaEffect(t *testing.T) {
	s, objs := newSchema(t)
	var b strings.Builder
	for _, o := range objs {
		fmt.Fprintf(&b, "%s %s\n  %s\n", o.typ, o.name, stripComments(o.sql))
		if o.typ != "table" {
			continue
		}
		cols, err := queryRows(context.Background(), s, func(r *sql.Rows) (string, error) {
			var (
				cid, notNull, pk int
				name, typ, dflt  string
			)
			err := r.Scan(&cid, &name, &typ, &notNull, &dflt, &pk)
			return fmt.Sprintf("  %d %s %s notnull=%d default=%s pk=%d", cid, name, typ, notNull, dflt, pk), err
		}, "SELECT cid, name, type, \"notnull\", coalesce(dflt_value, 'NULL'), pk FROM pragma_table_info(?)", o.name)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join(cols, "\n") + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "schema.golden"), []byte(b.String()))
}

// TestSchemaComments: README promises that `sqlite3 FILE .schema` shows
// every column of a new file with a comment, and the comments must say
// what the columns hold. SQLite keeps a comment of ALTER TABLE ADD COLUMN
// only inside the statement, and a `--` comment there cuts the rewritten
// CREATE TABLE short ("incomplete input"): those take /* */.
func TestSchemaComments(t *testing.T) {
	s, objs := newSchema(t)
	comments := map[string]string{} // table.column -> its definition's text, comment included
	for _, o := range objs {
		if o.typ != "table" || o.name == "sqlite_sequence" {
			continue
		}
		names, err := queryRows(context.Background(), s, func(r *sql.Rows) (string, error) {
			var n string
			return n, r.Scan(&n)
		}, "SELECT name FROM pragma_table_info(?)", o.name)
		if err != nil {
			t.Fatal(err)
		}
		// Each column's definition runs from its name to the next
		// column's, or to the table's key clause or end.
		type span struct {
			name  string
			start int
		}
		var spans []span
		for _, n := range names {
			loc := regexp.MustCompile(`(?m)(^|[(,])[ \t]*"?` + n + `"? +[A-Z]`).FindStringIndex(o.sql)
			if loc == nil {
				t.Fatalf("table %s: column %s not found in %q", o.name, n, o.sql)
			}
			spans = append(spans, span{n, loc[0]})
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		for i, sp := range spans {
			end := len(o.sql)
			if i+1 < len(spans) {
				end = spans[i+1].start
			}
			def := o.sql[sp.start:end]
			if k := strings.Index(def, "PRIMARY KEY ("); k >= 0 {
				def = def[:k]
			}
			c := strings.Join(sqlComment.FindAllString(def, -1), " ")
			if c == "" {
				t.Errorf("%s.%s has no comment: %q", o.name, sp.name, def)
			}
			comments[o.name+"."+sp.name] = c
		}
	}
	for _, c := range []struct {
		column string
		want   []string
	}{
		{"runs.status", []string{"running", "complete", "interrupted", "truncated", "failed", "abandoned", "a limit"}},
		{"hotspots.rank_by", []string{"size", "growth", "chain"}},
		{"hotspots.growth", []string{"subtree size", "count"}},
		{"runs.score", []string{"engine", "declared", "NULL"}},
		{"runs.variant", []string{"engine"}},
		{"runs.engine", []string{"NULL", "name"}},
		{"runs.stop_cause", []string{"nodes", "time", "size", "cancel", "abort", "stream"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(comments[c.column], w) {
				t.Errorf("%s's comment %q does not say %q", c.column, comments[c.column], w)
			}
		}
	}
}
