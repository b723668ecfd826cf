// Package fulldisk gives tests a real full disk: a small tmpfs mounted in
// a test's temporary directory, so that writes fail with ENOSPC as they
// do on a full file system (SQLite's SQLITE_FULL, a half-written export),
// not with an error a fake writer makes up. Mounting needs root (or
// CAP_SYS_ADMIN): without it the test is skipped with a message.
package fulldisk

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// Mount mounts a tmpfs of size bytes (rounded up to pages) on a new
// directory under t.TempDir() and returns it; it is unmounted when the
// test ends. The test is skipped when it cannot be mounted.
func Mount(t testing.TB, size int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "full")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := "size=" + strconv.FormatInt(size, 10)
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (needs root): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			// A file still open (a process the test started): lazily,
			// so the mount goes when it closes.
			if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
				t.Errorf("unmount %s: %v", dir, err)
			}
		}
	})
	return dir
}

// Fill writes a file in dir until the file system has no room left but
// for keep bytes (0: none), and returns its name; removing it makes the
// room again.
func Fill(t testing.TB, dir string, keep int64) string {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * st.Bsize
	name := filepath.Join(dir, "fill")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for n := free - keep; n > 0; {
		w := min(int64(len(chunk)), n)
		k, err := f.Write(chunk[:w])
		n -= int64(k)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return name
}
