package trace

import (
	"fmt"
	"strings"

	"github.com/horizonqs/horizon/engine"
)

// SearchOptions returns the engine.Options the run was searched with, read
// by engine.ParseOptionsJSON (the one parser of recorded options): Horizon's
// recorders store engine.Options.JSON, older ones the engine.Options.String
// form, which is read too; a run with no options recorded gets its
// variant's preset. Another engine's run (Engine != "") has no
// engine.Options: it returns nil and no error. An error says the options
// stored cannot be read (an unknown variant or switch).
func (r Run) SearchOptions() (*engine.Options, error) {
	if r.Engine != "" {
		return nil, nil
	}
	text := strings.TrimSpace(r.Options)
	var (
		o   engine.Options
		err error
	)
	switch {
	case text == "" || text == "{}":
		if o, err = engine.VariantOptions(r.Variant); err != nil {
			return nil, fmt.Errorf("run %d: no options recorded and %w", r.ID, err)
		}
	case strings.HasPrefix(text, "{"):
		if o, err = engine.ParseOptionsJSON(text, r.Variant); err != nil {
			return nil, fmt.Errorf("run %d: options: %w", r.ID, err)
		}
	default:
		if o, err = engine.ParseOptions(text); err != nil {
			return nil, fmt.Errorf("run %d: options %q: %w", r.ID, text, err)
		}
	}
	return &o, nil
}
