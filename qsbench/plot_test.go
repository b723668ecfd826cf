package qsbench

import (
	"bytes"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/horizonqs/horizon/internal/golden"
)

// plotSums are summaries with a front of three (none, recapture, see) and
// labels that would collide if placed naively.
func plotSums() []Summary {
	mk := func(v string, nodes, mae float64) Summary {
		return Summary{Variant: v, Compared: 100, QSNodesMean: nodes, Error: ErrorStats{MAE: mae}}
	}
	sums := []Summary{mk("none", 1, 300), mk("captures", 20, 130), mk("mvv-lva", 21, 130), mk("recapture", 2, 190),
		mk("beal", 25, 129), mk("threshold", 40, 130), mk("unified", 21, 130), mk("see", 8.2, 118), mk("see+qs-checks=false", 6, 125)}
	markPareto(sums)
	return sums
}

func TestPareto(t *testing.T) {
	var front []string
	for _, s := range plotSums() {
		if s.Pareto {
			front = append(front, s.Variant)
		}
	}
	if got := strings.Join(front, ","); got != "none,recapture,see,see+qs-checks=false" {
		t.Errorf("front = %s", got)
	}
}

func TestPlotGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WritePlot(&buf, plotSums(), "QS cost against QS accuracy", "9 variants <test & golden>"); err != nil {
		t.Fatal(err)
	}
	// Well-formed XML, or no browser shows it.
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
	}
	for _, want := range []string{"see+qs-checks=false (125 cp)", "&lt;test &amp; golden&gt;", "<polyline", "log scale"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	golden.Check(t, filepath.Join("testdata", "plot.golden.svg"), buf.Bytes())
}

// TestPlotUnderOneNode: a log scale has no 0, so a variant with under one
// QS node per position (none has 0) is drawn at the axis' left end. That
// end reads "≤1" and the point's label gives its mean: it read "1", and
// the chart said none searched one QS node per position.
func TestPlotUnderOneNode(t *testing.T) {
	sums := plotSums()
	sums[0].QSNodesMean = 0 // none
	var buf bytes.Buffer
	if err := WritePlot(&buf, sums, "t", "s"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">≤1</text>", "none (0 QS nodes, 300 cp)", "recapture (190 cp)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	buf.Reset()
	if err := WritePlot(&buf, plotSums(), "t", "s"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "≤1") {
		t.Error("a plot whose cheapest variant has one QS node per position marks its axis ≤1")
	}
}
