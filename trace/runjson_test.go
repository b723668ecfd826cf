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
