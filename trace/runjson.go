package trace

import (
	"bytes"
	"encoding/json"
	"strings"
)

// OptionsObject returns the run's options for a --json output: the stored
// JSON object with typed values (true, 16, "captures"), not a JSON string
// holding JSON; see ObjectJSON.
func (r Run) OptionsObject() json.RawMessage { return ObjectJSON(r.Options) }

// LimitsObject is OptionsObject for the run's limits.
func (r Run) LimitsObject() json.RawMessage { return ObjectJSON(r.Limits) }

// ObjectJSON turns stored metadata (a run's options or limits) into a value
// for --json output. A JSON object is returned as an object with its keys
// in snake_case, as every --json's are (options are stored under the
// switches' flag names, qs-moves); {} for an empty text; anything else,
// which a file written by another tool may hold, as a JSON string, so the
// output stays valid JSON.
func ObjectJSON(s string) json.RawMessage {
	t := bytes.TrimSpace([]byte(s))
	if len(t) == 0 {
		return json.RawMessage("{}")
	}
	var m map[string]json.RawMessage
	if t[0] == '{' && json.Unmarshal(t, &m) == nil {
		out := make(map[string]json.RawMessage, len(m))
		for k, v := range m {
			out[strings.ReplaceAll(k, "-", "_")] = v
		}
		if b, err := json.Marshal(out); err == nil {
			return b
		}
	}
	b, _ := json.Marshal(s)
	return b
}
