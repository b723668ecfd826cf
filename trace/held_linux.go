package trace

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// heldFile keeps hold of the file a store writes, by an O_PATH
// descriptor, so that Close can tell whether its name still names it
// (whether it was deleted, moved or replaced while a run was recorded),
// and where it went. An O_PATH descriptor neither reads nor locks the
// file: closing it cannot drop SQLite's POSIX locks, as closing another
// descriptor of the file would.
type heldFile struct{ fd int }

// holdFile takes hold of the file at path; nil when it cannot (Close
// then checks nothing).
func holdFile(path string) *heldFile {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	return &heldFile{fd: fd}
}

// where says where the held file is now: at path (here), under another
// name (moved is that name), or nowhere (deleted: no name links to it,
// though it lives on while it is open).
func (h *heldFile) where(path string) (here bool, moved string, deleted bool) {
	var held, named unix.Stat_t
	if unix.Fstat(h.fd, &held) != nil {
		return true, "", false // cannot tell: nothing to say
	}
	if unix.Stat(path, &named) == nil && named.Dev == held.Dev && named.Ino == held.Ino {
		return true, "", false
	}
	if held.Nlink == 0 {
		return false, "", true
	}
	// The kernel's name for the file; a name in another mount namespace
	// or an unreachable one reads oddly, and is still the best there is.
	name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(h.fd))
	if err != nil {
		name = "another name"
	}
	return false, name, false
}

// mode is the held file's permission bits, which a copy written back in
// its place takes (os.CreateTemp made it 0600); false when unknown.
func (h *heldFile) mode() (os.FileMode, bool) {
	var st unix.Stat_t
	if unix.Fstat(h.fd, &st) != nil {
		return 0, false
	}
	return os.FileMode(st.Mode & 0o777), true
}

func (h *heldFile) close() { unix.Close(h.fd) }

// maxHolders bounds the processes holders names.
const maxHolders = 3

// holders names the other processes that have the file at path open
// ("sqlite3, pid 4242"), from /proc, as far as this process may see them:
// for an error that says who keeps a writer out. Read only on that error.
func holders(path string) []string {
	var want unix.Stat_t
	if unix.Stat(path, &want) != nil {
		return nil
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	self := os.Getpid()
	var out []string
	for _, proc := range procs {
		pid, err := strconv.Atoi(filepath.Base(proc))
		if err != nil || pid == self {
			continue
		}
		fds, _ := filepath.Glob(proc + "/fd/*")
		for _, fd := range fds {
			var st unix.Stat_t
			if unix.Stat(fd, &st) != nil || st.Dev != want.Dev || st.Ino != want.Ino {
				continue
			}
			comm, _ := os.ReadFile(proc + "/comm")
			name := strings.TrimSpace(string(comm))
			if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
				name = "?"
			}
			out = append(out, name+", pid "+strconv.Itoa(pid))
			break
		}
		if len(out) == maxHolders {
			break
		}
	}
	return out
}
