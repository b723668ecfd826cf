package trace

import (
	"context"
	"database/sql"
	_ "embed" // schema/known.json
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// A trace file is untrusted input: whoever wrote it may have put triggers
// (code SQLite runs when Horizon writes a table), views (code it runs when
// Horizon reads one, under a name Horizon reads), generated columns, huge
// values or planner statistics in it. Horizon opens every file through
// driverName, whose connections are hardened before any statement runs
// (harden), and compares the file's schema with the one it makes before
// any of its own statements reads or writes the data (checkSchema).

// driverName and writerDriverName are the database/sql drivers every
// store opens its file with, read-only and read-write: SQLite's, each
// connection hardened (harden) with its bound on a value.
const (
	driverName       = "horizon-sqlite3"
	writerDriverName = "horizon-sqlite3-rw"
)

// sqliteDriver opens hardened read-write connections; a recorder's own
// connection (openWriter) comes from it too.
var sqliteDriver = &sqlite3.SQLiteDriver{ConnectHook: harden(maxWrittenBytes)}

func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{ConnectHook: harden(maxValueBytes)})
	sql.Register(writerDriverName, sqliteDriver)
}

// driverFor is the driver a store opens its file with.
func driverFor(readOnly bool) string {
	if readOnly {
		return driverName
	}
	return writerDriverName
}

// maxValueBytes bounds one value (a string, a blob, a row) a read-only
// connection reads or makes (SQLITE_LIMIT_LENGTH). A run's longest
// values, its options and principal variation, take a few kilobytes; a
// view that made a 400 MB fen took 2.9 GB to read. maxWrittenBytes bounds
// the connections that write, whose run rows hold what Horizon was given
// (a stream's header record, up to 1 MiB, becomes a run's options): a
// bound still, with room for a row of such values.
const (
	maxValueBytes   = 1 << 20
	maxWrittenBytes = 16 << 20
)

// valueBound is the bound on a value of the store's connections.
func (s *Store) valueBound() int {
	if s.readOnly {
		return maxValueBytes
	}
	return maxWrittenBytes
}

// harden returns the hook that readies a new connection for an untrusted
// file: SQLite's defensive mode; trusted_schema off, so that the schema
// (views, triggers, CHECK constraints, generated columns, index
// expressions) can call no function not marked harmless; a value bounded
// at limit bytes. Extension loading stays as SQLite leaves it, off:
// load_extension() refuses to run.
func harden(limit int) func(*sqlite3.SQLiteConn) error {
	return func(c *sqlite3.SQLiteConn) error {
		if err := defensive(c); err != nil {
			return err
		}
		if _, err := c.Exec("PRAGMA trusted_schema=OFF", nil); err != nil {
			return err
		}
		c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, limit)
		return nil
	}
}

// schemaEntry is an entry of sqlite_schema, its SQL normalised
// (normalSQL).
type schemaEntry struct {
	typ, name, tbl, sql string
	raw                 string // sql as the file has it
}

// knownObject is an object of a schema Horizon makes, as
// schema/known.json keeps it.
type knownObject struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Table string `json:"table"`
	SQL   string `json:"sql"` // normalised (normalSQL)
}

// knownFile is schema/known.json: the objects a file of each schema
// version holds as Horizon makes it (Versions[v-1] for version v), and
// every name a migration creates (Names; Tables of them the tables), also
// those an upgrade makes on its way (node_rows2): a table or view of
// another's under one of them shadows what Horizon reads or writes. It
// is derived from the migrations, replayed into an empty database (a file
// upgraded from an older version holds the same, as its upgrade runs the
// same migrations), by TestKnownSchemas, which fails when it is not
// what they make (go test ./trace -run TestKnownSchemas -update writes
// it): replaying them at every open took 9 ms of each command's start.
type knownFile struct {
	Versions [][]knownObject `json:"versions"`
	Names    []string        `json:"names"`
	Tables   []string        `json:"tables"`
}

//go:embed schema/known.json
var knownJSON []byte

// known is knownJSON read: each version's objects by name (index v; 0 is
// empty), and the names and tables, lowercased.
var known = sync.OnceValue(func() (k struct {
	versions      []map[string]schemaEntry
	names, tables map[string]bool
}) {
	var f knownFile
	if err := json.Unmarshal(knownJSON, &f); err != nil || len(f.Versions) != SchemaVersion() {
		panic("trace: schema/known.json does not match the migrations: go test ./trace -run TestKnownSchemas -update")
	}
	k.versions = []map[string]schemaEntry{{}}
	for _, objs := range f.Versions {
		v := map[string]schemaEntry{}
		for _, o := range objs {
			v[o.Name] = schemaEntry{typ: o.Type, name: o.Name, tbl: o.Table, sql: o.SQL}
		}
		k.versions = append(k.versions, v)
	}
	k.names, k.tables = map[string]bool{}, map[string]bool{}
	for _, n := range f.Names {
		k.names[n] = true
	}
	for _, n := range f.Tables {
		k.tables[n] = true
	}
	return k
})

// readSchema reads sqlite_schema: reading it runs nothing the file holds.
func readSchema(ctx context.Context, q querier) ([]schemaEntry, error) {
	rows, err := q.QueryContext(ctx, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema ORDER BY rowid")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var objs []schemaEntry
	for rows.Next() {
		var o schemaEntry
		if err := rows.Scan(&o.typ, &o.name, &o.tbl, &o.sql); err != nil {
			return nil, err
		}
		o.raw, o.sql = o.sql, normalSQL(o.sql)
		objs = append(objs, o)
	}
	return objs, rows.Err()
}

// parentIndexName is the name of a run's parent index (parentIndexSQL).
var parentIndexName = regexp.MustCompile(`^node_parent_([1-9][0-9]{0,18})$`)

// checkSchema compares the schema of the file (version v, read through q)
// with the one Horizon makes for that version, before any statement of
// Horizon's reads or writes the data, and refuses the file, naming the
// object, when it holds
//   - a trigger or a view Horizon did not make (code the file's author
//     would have Horizon run: a trigger on runs fired by a recording, a
//     view of runs that never ends);
//   - a table under a name Horizon reads or writes (a table or view of
//     any schema version, the tables an upgrade makes, pragma_* names,
//     which a table would shadow), or a table of Horizon's whose
//     definition differs from Horizon's (a generated column is code too);
//   - an index on one of Horizon's tables that Horizon did not make: it
//     can change how Horizon's queries run (a plan that scanned a run per
//     step made hotspots 2,000 times slower) and costs every recorded
//     node, and Horizon's queries are written for its own indexes only;
//   - a virtual table (its module is code).
//
// A user's own tables under other names, and their indexes, are kept and
// opened with (a table of notes beside the runs harms nothing Horizon
// reads), as is sqlite_stat1, the statistics ANALYZE writes: Horizon's
// queries fix their plans so as not to depend on them (TestPlansIgnoreStats).
func checkSchema(ctx context.Context, q querier, path string, v int) error {
	objs, err := readSchema(ctx, q)
	if err != nil {
		return sqliteErr(path, err)
	}
	var objects map[string]schemaEntry
	if all := known().versions; v >= 1 && v < len(all) {
		objects = all[v]
	}
	// The worst is named: code first (triggers, then views), then the
	// tables and indexes in the way.
	var refused []string
	for _, typ := range []string{"trigger", "view", "table", "index"} {
		for _, o := range objs {
			if o.typ != typ {
				continue
			}
			if why := foreignObject(o, objects, v); why != "" {
				refused = append(refused, why)
			}
		}
	}
	if len(refused) == 0 {
		return nil
	}
	more := ""
	if len(refused) > 1 {
		more = fmt.Sprintf(" (and %d more objects Horizon did not make)", len(refused)-1)
	}
	return fmt.Errorf("trace %s holds %s%s: refusing to open it: %w", path, refused[0], more, ErrForeignSchema)
}

// foreignObject says what o is when Horizon did not make it and will not
// open the file with it ("a trigger 'x' on runs that Horizon did not
// make"), or "" when it is Horizon's or harmless (see checkSchema).
func foreignObject(o schemaEntry, objects map[string]schemaEntry, v int) string {
	lower := strings.ToLower(o.name)
	what := fmt.Sprintf("%s %s", article(o.typ), quoteName(o.name))
	if o.typ == "trigger" || o.typ == "index" {
		what += " on " + quoteName(o.tbl)
	}
	if k, ok := objects[o.name]; ok {
		if k.typ == o.typ && strings.EqualFold(k.tbl, o.tbl) && (k.sql == o.sql || o.typ == "view" && o.name == "nodes" && v >= keyLayout && horizonsView(o.raw)) {
			return ""
		}
		if k.typ != o.typ {
			return what + " that Horizon did not make, in place of its " + k.typ
		}
		return what + " that is not the one Horizon made for schema version " + strconv.Itoa(v)
	}
	switch {
	case strings.HasPrefix(lower, "sqlite_autoindex_") && o.typ == "index" && o.sql == "":
		return "" // SQLite's, for a table's UNIQUE or PRIMARY KEY
	case lower == "sqlite_stat1" || lower == "sqlite_stat4":
		return "" // ANALYZE's: Horizon's plans do not depend on them
	case o.typ == "index" && v >= keyLayout && o.tbl == "node_rows" && parentIndexName.MatchString(o.name):
		run, _ := strconv.ParseInt(parentIndexName.FindStringSubmatch(o.name)[1], 10, 64)
		if o.sql == normalSQL(strings.Replace(parentIndexSQL(run), " IF NOT EXISTS", "", 1)) {
			return ""
		}
		return what + " that is not the one Horizon made"
	case o.typ == "trigger" || o.typ == "view":
		return what + " that Horizon did not make"
	case strings.HasPrefix(lower, "sqlite_") || known().names[lower] || strings.HasPrefix(lower, "pragma_") ||
		strings.HasPrefix(lower, "node_parent_"):
		return what + " that Horizon did not make, under a name Horizon reads or writes"
	case o.typ == "index" && known().tables[strings.ToLower(o.tbl)]:
		return what + " that Horizon did not make (an index on Horizon's tables changes how its queries run: drop it with DROP INDEX " + quoteName(o.name) + ")"
	case o.typ == "table" && strings.HasPrefix(strings.ToUpper(o.sql), "CREATE VIRTUAL TABLE"):
		return "a virtual table " + quoteName(o.name) + " that Horizon did not make"
	}
	return ""
}

// article is "a TYPE" or "an TYPE".
func article(typ string) string {
	if typ == "index" {
		return "an index"
	}
	return "a " + typ
}

// quoteName quotes a schema object's name for a message: 'name', or Go's
// quoting when it holds what a terminal would act on, cut short when long.
func quoteName(name string) string {
	const max = 64
	if len(name) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut] + "..."
	}
	if !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) || r == '\'' }) {
		return strconv.Quote(name)
	}
	return "'" + name + "'"
}

// normalSQL is a schema statement as it compares: comments removed
// (outside string literals and quoted names, where they are text),
// runs of white space one space, none beside ( ) , or ;, no final ;, and
// a double-quoted plain name unquoted (SQLite writes a renamed table's
// name quoted). What the statement does is unchanged.
func normalSQL(s string) string {
	var b strings.Builder
	space := false
	emit := func(t string) {
		if space && b.Len() > 0 {
			last := b.String()[b.Len()-1]
			if !strings.ContainsRune("(,;", rune(last)) && !strings.ContainsRune("),;(", rune(t[0])) {
				b.WriteByte(' ')
			}
		}
		space = false
		b.WriteString(t)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			i += j
			space = true
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s)
			} else {
				i += j + 4
			}
			space = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			space = true
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := byte(c)
			if c == '[' {
				end = ']'
			}
			j := i + 1
			for j < len(s) {
				if s[j] == end {
					if end != ']' && j+1 < len(s) && s[j+1] == end {
						j += 2 // a doubled quote inside
						continue
					}
					break
				}
				j++
			}
			if j < len(s) {
				j++
			}
			tok := s[i:j]
			if c != '\'' && len(tok) >= 2 && plainName.MatchString(tok[1:len(tok)-1]) {
				tok = tok[1 : len(tok)-1]
			}
			emit(tok)
			i = j
		default:
			j := i + 1
			if isWordByte(c) {
				for j < len(s) && isWordByte(s[j]) {
					j++
				}
			}
			emit(s[i:j])
			i = j
		}
	}
	return strings.TrimRight(b.String(), ";")
}

var plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// tooBig reports whether err is SQLite's for a value longer than a
// connection's bound (valueBound).
func tooBig(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrTooBig
}

// bigRunValue returns, for err, an error of reading runs that met a value
// longer than the store's bound (valueBound), one that names the run and the column: each
// run's row is read again, and the columns of the one that fails one by
// one. Only on that error path; err itself when none fails now.
func (s *Store) bigRunValue(ctx context.Context, err error) error {
	if !tooBig(err) {
		return err
	}
	ids, ierr := queryRows(ctx, s, func(r *sql.Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	}, "SELECT id FROM runs ORDER BY id")
	cols, cerr := queryRows(ctx, s, func(r *sql.Rows) (string, error) {
		var c string
		return c, r.Scan(&c)
	}, "SELECT name FROM pragma_table_info('runs') ORDER BY cid")
	if ierr != nil || cerr != nil {
		return sqliteErr(s.path, err)
	}
	read := func(cols string, id int64) error {
		var v sql.RawBytes
		rows, err := s.read().QueryContext(ctx, "SELECT "+cols+" FROM runs WHERE id = ?", id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if cols == "*" {
				continue
			}
			if err := rows.Scan(&v); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	for _, id := range ids {
		if !tooBig(read("*", id)) {
			continue
		}
		for _, c := range cols {
			// The names are those of Horizon's runs table (checkSchema).
			if tooBig(read(`"`+strings.ReplaceAll(c, `"`, `""`)+`"`, id)) {
				return damagedf("trace %s: run %d: its %s is longer than %d MiB, more than Horizon writes: refusing to read it", s.path, id, c, s.valueBound()>>20)
			}
		}
	}
	return sqliteErr(s.path, err)
}

// hotJournal reports whether err is SQLite's for a read-only connection
// that found a hot journal (SQLITE_READONLY_ROLLBACK): a write was cut
// short, and the file reads only once the journal is rolled back.
func hotJournal(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrReadonlyRollback
}

// cannotWrite says why this process may not write the trace at path and
// the journal beside it ("" when it may): a variable so that a test run
// as root can see the refusal.
var cannotWrite = func(path string) string {
	switch dir := filepath.Dir(path); {
	case !writable(path):
		return filepath.Base(path) + " is read-only"
	case !writable(dir):
		return "its directory " + dir + " is read-only"
	}
	return ""
}

// rollBack rolls back the hot journal beside the trace at path, as the
// first read-write connection to it does, or says why it cannot.
func rollBack(path string) error {
	base := filepath.Base(path)
	if why := cannotWrite(path); why != "" {
		return fmt.Errorf("trace %s: a write to it was cut short (killed while it was upgraded or recorded into) and left %s-journal beside it, which must be rolled back before the file can be read, by a process that may write %s and its directory; this one may not, as %s: run any horizon command on it once as a user who may",
			path, base, base, why)
	}
	db, err := sql.Open(writerDriverName, dsn(path, false))
	if err != nil {
		return fmt.Errorf("open trace %s: %w", path, err)
	}
	defer db.Close()
	// Reading the header takes the shared lock, where SQLite rolls the
	// journal back; nothing of the file's schema or data runs.
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("trace %s: rolling back %s-journal, which a write cut short left beside it: %s", path, base, oneLine(err))
	}
	return nil
}
