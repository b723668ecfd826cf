package render

import "testing"

func TestPNGSizeCap(t *testing.T) {
	for _, c := range []struct{ w, h float64 }{{100, 100}, {72 * 200, 72 * 3}, {72 * 100, 72 * 100}, {10, 72 * 500}} {
		s := pngScale(c.w, c.h)
		w, h := c.w*s, c.h*s
		if w > MaxPNGSide+0.5 || h > MaxPNGSide+0.5 || w*h > MaxPNGPixels*1.001 {
			t.Fatalf("%vx%v points: %vx%v pixels, over the cap", c.w, c.h, w, h)
		}
		if s > PNGDPI/72.0+1e-9 {
			t.Fatalf("%vx%v points: scale %v above the DPI's", c.w, c.h, s)
		}
	}
}
