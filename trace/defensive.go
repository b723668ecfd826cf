package trace

/*
typedef struct sqlite3 sqlite3;
// SQLite's, linked into the binary by github.com/mattn/go-sqlite3, which
// does not expose it.
extern int sqlite3_db_config(sqlite3*, int op, ...);

// hz_defensive turns SQLITE_DBCONFIG_DEFENSIVE (1010) on for db and
// reports whether it is on.
static int hz_defensive(void *db, int *on) {
	int rc = sqlite3_db_config((sqlite3*)db, 1010, 1, (int*)0);
	if (rc != 0) return rc;
	return sqlite3_db_config((sqlite3*)db, 1010, -1, on);
}
*/
import "C"

import (
	"fmt"
	"reflect"
	"unsafe"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// defensive turns on SQLite's defensive mode (SQLITE_DBCONFIG_DEFENSIVE)
// for the connection: no writable_schema, no journal_mode=OFF, no writes
// to the schema's own pages or shadow tables, whatever SQL later runs.
// go-sqlite3 keeps the connection's sqlite3 handle unexported (its field
// db), so it is read by reflection; TestDefensive fails if that field
// goes.
func defensive(c *sqlite3.SQLiteConn) error {
	f := reflect.ValueOf(c).Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return fmt.Errorf("cannot turn on SQLite's defensive mode: go-sqlite3's connection has no handle")
	}
	var on C.int
	if rc := C.hz_defensive(unsafe.Pointer(f.Pointer()), &on); rc != 0 || on != 1 {
		return fmt.Errorf("cannot turn on SQLite's defensive mode (code %d)", int(rc))
	}
	return nil
}
