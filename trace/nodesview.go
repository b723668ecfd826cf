package trace

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The nodes view names three codes of node_rows.info: kind, bound and
// cutoff. The schema (003_keyed.sql) writes each as a lookup in its table,
// (SELECT name FROM kinds WHERE code = n.info & 7), which SQLite runs as a
// subquery per row: a query that reads a run's rows and names one of them
// paid about as much for the lookups as for the rows. So Horizon writes the
// view it stores with each lookup spelled out as a CASE of its table's
// rows, whenever it opens a file for writing, in the transaction that fills
// the tables from Go's names (fillLookups). The view means what the lookup
// meant (the table's name for a code, NULL for a code the table lacks,
// TEXT affinity; only pragma table_info no longer declares the three
// columns TEXT, as SQLite declares the type of a column or a subquery
// alone, and no faster form is either); the names' one home stays Go
// (engine.KindNames, ...), from which the tables are filled and the view
// is written; and the schema version stays: older Horizons of schema 6
// open and record into such a file as before (they leave the view as it
// is, and their names are the same). A file no Horizon of this version has
// written into keeps the view it has, which answers the same, slower.

// viewLookup matches a lookup of the schema's nodes view: its table, the
// code's expression and the column it names.
var viewLookup = regexp.MustCompile(`\(SELECT name FROM (kinds|bounds|causes) WHERE code = (.+?)\) AS (kind|bound|cutoff)\b`)

// schemaNodesView is the nodes view as the newest migration that creates
// it writes it, lookups and all, without the statement's semicolon.
var schemaNodesView = sync.OnceValue(func() string {
	const start = "CREATE VIEW nodes AS"
	view := ""
	for _, m := range migrations() {
		if i := strings.LastIndex(m.sql, start); i >= 0 {
			view, _, _ = strings.Cut(m.sql[i:], ";")
		}
	}
	if n := len(viewLookup.FindAllString(view, -1)); n != 3 {
		panic(fmt.Sprintf("trace: the schema's nodes view has %d lookups of kind, bound and cutoff, want 3", n))
	}
	return view
})

// codeName is one row of a lookup table.
type codeName struct {
	code int64
	name string
}

// nodesView is the nodes view with its lookups written out from the rows
// of the lookup tables, names by table.
func nodesView(names map[string][]codeName) string {
	return viewLookup.ReplaceAllStringFunc(schemaNodesView(), func(lookup string) string {
		m := viewLookup.FindStringSubmatch(lookup)
		var b strings.Builder
		b.WriteString("CAST(")
		if rows := names[m[1]]; len(rows) == 0 {
			b.WriteString("NULL")
		} else {
			b.WriteString("CASE " + m[2])
			for _, r := range rows {
				fmt.Fprintf(&b, " WHEN %d THEN '%s'", r.code, strings.ReplaceAll(r.name, "'", "''"))
			}
			b.WriteString(" END")
		}
		b.WriteString(" AS TEXT) AS " + m[3])
		if m[3] == "kind" {
			// SQLite keeps a comment inside the statement: .schema shows it.
			return "-- kind, bound and cutoff: the names the tables kinds, bounds and causes give their\n" +
				"    -- codes, written out by Horizon from those tables when it records into the file\n    " + b.String()
		}
		return b.String()
	})
}

// writtenNames matches a name column of a written-out view (nodesView):
// the code's expression (1), its WHEN clauses, constants only (2), and
// the column (3). A file is untrusted input: a view whose expression or
// clauses are anything else (a subquery) is not Horizon's.
var writtenNames = regexp.MustCompile(`CAST\((?:CASE (.+?)((?: WHEN -?[0-9]+ THEN '(?:[^']|'')*')+) END|NULL) AS TEXT\) AS (kind|bound|cutoff)\b`)

// lookupCodes is the expression of each name column's code in the
// schema's nodes view (kind: "n.info & 7"), by column.
var lookupCodes = sync.OnceValue(func() map[string]string {
	codes := map[string]string{}
	for _, m := range viewLookup.FindAllStringSubmatch(schemaNodesView(), -1) {
		codes[m[3]] = m[2]
	}
	return codes
})

// horizonsView reports whether sql is a nodes view Horizon wrote: the
// schema's, or one written out from lookup tables of any names (its
// comments and spacing aside, which an older Horizon may have written
// otherwise).
func horizonsView(sql string) bool {
	if sql == schemaNodesView() {
		return true
	}
	ok := true
	blank := writtenNames.ReplaceAllStringFunc(sql, func(col string) string {
		m := writtenNames.FindStringSubmatch(col)
		if m[1] != "" && m[1] != lookupCodes()[m[3]] {
			ok = false
		}
		return "CAST(NULL AS TEXT) AS " + m[3]
	})
	return ok && normalSQL(blank) == normalSQL(nodesView(nil))
}

// writeNodesView replaces the file's nodes view with the one written out
// from its lookup tables (nodesView), inside the transaction that filled
// them, or creates it where it is missing. A file whose view is that
// already is left as it is, and so is one whose view is not Horizon's
// (horizonsView) or has a trigger on it, which dropping the view would
// drop: such a file is refused before it gets here (checkSchema), and
// would not be changed if it were not.
func writeNodesView(ctx context.Context, tx *sql.Tx) error {
	names := map[string][]codeName{}
	for _, table := range []string{"kinds", "bounds", "causes"} {
		// The table name is one of three constants, never input.
		rows, err := tx.QueryContext(ctx, "SELECT code, name FROM "+table+" ORDER BY code")
		if err != nil {
			return err
		}
		for rows.Next() {
			var r codeName
			if err := rows.Scan(&r.code, &r.name); err != nil {
				rows.Close()
				return err
			}
			names[table] = append(names[table], r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	view := nodesView(names)
	var have string
	var triggers int
	err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT sql FROM sqlite_schema WHERE type = 'view' AND name = 'nodes'), ''),
		(SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'nodes')`).Scan(&have, &triggers)
	if err != nil || have == view || triggers > 0 || have != "" && !horizonsView(have) {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DROP VIEW IF EXISTS nodes"); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, view)
	return err
}
