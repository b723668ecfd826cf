//go:build !linux

package trace

import "os"

// heldFile is Linux's hold on a store's file (held_linux.go); elsewhere
// Close does not check that the file is still where it was.
type heldFile struct{}

func holdFile(path string) *heldFile { return nil }

func (h *heldFile) where(path string) (here bool, moved string, deleted bool) {
	return true, "", false
}

func (h *heldFile) mode() (os.FileMode, bool) { return 0, false }

func (h *heldFile) close() {}

// holders names the processes that have the file open: not known here.
func holders(path string) []string { return nil }
