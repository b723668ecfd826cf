package trace

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
)

// IntegrityCheck runs SQLite's own integrity check (PRAGMA integrity_check)
// with the SQLite built into Horizon, and returns its findings: none when
// the file is sound. At most limit findings are returned; each names the
// damaged page, and the table it belongs to where SQLite names its b-tree.
// On a badly damaged file the check itself can stop with an error
// ("database disk image is malformed") after its first findings: it
// returns both, and the findings are the report.
func (s *Store) IntegrityCheck(ctx context.Context, limit int) ([]string, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf("PRAGMA integrity_check(%d)", limit))
	if err != nil {
		return nil, sqliteErr(s.path, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return lines, sqliteErr(s.path, err)
		}
		for _, line := range strings.Split(text, "\n") {
			// The "*** in database main ***" heading says nothing to a
			// trace's reader: the file is one database.
			if line = strings.TrimSpace(line); line != "" && line != "*** in database main ***" {
				lines = append(lines, line)
			}
		}
	}
	err = rows.Err()
	if len(lines) == 1 && lines[0] == "ok" && err == nil {
		return nil, nil // a sound file
	}
	s.nameTrees(ctx, lines)
	if err != nil {
		return lines, sqliteErr(s.path, err)
	}
	return lines, nil
}

// treeRef is how integrity_check names a b-tree: by its root page.
var treeRef = regexp.MustCompile(`^Tree (\d+) `)

// nameTrees adds the table (or index) name after each "Tree N" of an
// integrity finding, as far as the schema still reads.
func (s *Store) nameTrees(ctx context.Context, lines []string) {
	rows, err := s.db.QueryContext(ctx, "SELECT rootpage, name FROM sqlite_master WHERE rootpage > 0")
	if err != nil {
		return
	}
	defer rows.Close()
	names := map[string]string{}
	for rows.Next() {
		var root, name string
		if rows.Scan(&root, &name) == nil {
			names[root] = name
		}
	}
	for i, l := range lines {
		if m := treeRef.FindStringSubmatch(l); m != nil && names[m[1]] != "" {
			lines[i] = "Tree " + m[1] + " (" + names[m[1]] + ") " + l[len(m[0]):]
		}
	}
}

// CheckFileIntegrity runs IntegrityCheck on the SQLite file at path without
// opening it as a trace: Open reads the runs table and so fails on a
// damaged page there with SQLite's bare "malformed", where the integrity
// check names the pages. For a file that Open or a read refused.
func CheckFileIntegrity(ctx context.Context, path string, limit int) ([]string, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	db, err := sql.Open(driverName, dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("open trace %s: %w", path, err)
	}
	s := &Store{db: db, path: path, readOnly: true}
	lines, err := s.IntegrityCheck(ctx, limit)
	db.Close()
	if hotJournal(err) {
		// As open does: the journal a cut-short write left is rolled
		// back first, where this process may.
		if err := rollBack(path); err != nil {
			return nil, err
		}
		return CheckFileIntegrity(ctx, path, limit)
	}
	return lines, err
}
