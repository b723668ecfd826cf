package longtest

import "testing"

func TestQuick(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want bool
	}{
		{"", true},
		{"0", true},
		{"yes", true},
		{"1", testing.Short()},
	} {
		t.Setenv(Env, tc.env)
		if got := Quick(); got != tc.want {
			t.Errorf("%s=%q: Quick() = %v, want %v", Env, tc.env, got, tc.want)
		}
	}
}
