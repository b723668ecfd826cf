package trace

import "testing"

func TestRunJSONObjects(t *testing.T) {
	cases := []struct{ stored, want string }{
		{`{"depth":5,"last_iteration":true}`, `{"depth":5,"last_iteration":true}`},
		{` {"qs-moves":"captures","hash":16} `, `{"hash":16,"qs_moves":"captures"}`},
		{``, `{}`},
		{`go depth 5`, `"go depth 5"`},
		{`{"broken":`, `"{\"broken\":"`},
		{`[1,2]`, `"[1,2]"`},
	}
	for _, c := range cases {
		r := Run{Options: c.stored, Limits: c.stored}
		if got := string(r.OptionsObject()); got != c.want {
			t.Errorf("OptionsObject(%q) = %s, want %s", c.stored, got, c.want)
		}
		if got := string(r.LimitsObject()); got != c.want {
			t.Errorf("LimitsObject(%q) = %s, want %s", c.stored, got, c.want)
		}
	}
}

// TestLimitsObjectNoGo: an imported run without a limits record has no
// go command: its limits' "go" is null, as every absent fact, also in a
// trace written before the importer stored null there ("go": "").
func TestLimitsObjectNoGo(t *testing.T) {
	for _, c := range []struct{ stored, want string }{
		{`{"go":"","max_nodes":1000000}`, `{"go":null,"max_nodes":1000000}`},
		{`{"go":null,"max_nodes":0}`, `{"go":null,"max_nodes":0}`},
		{`{"go":"depth 5","max_nodes":0}`, `{"go":"depth 5","max_nodes":0}`},
	} {
		if got := string(Run{Limits: c.stored}.LimitsObject()); got != c.want {
			t.Errorf("LimitsObject(%s) = %s, want %s", c.stored, got, c.want)
		}
	}
}
