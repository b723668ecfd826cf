package foreign_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// emitDir is the emit module's directory, from this package's.
const emitDir = "../emit"

// goTool runs the go command in dir with the module proxy and the toolchain
// switch off: the emit module needs neither, and a test that reached the
// network would pass or fail with it.
func goTool(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	gobin := needTool(t, "go")
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestEmitModule: emit builds, vets and passes its own tests as a module of
// its own, and imports nothing outside the standard library, so that `go
// test ./...` here covers it (it is not part of this module's ./...).
func TestEmitModule(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the emit module with the go command")
	}
	for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		if out, err := goTool(t, emitDir, args...); err != nil {
			t.Fatalf("go %s in emit/: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	out, err := goTool(t, emitDir, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if deps := strings.Fields(out); len(deps) != 1 || deps[0] != "github.com/horizonqs/horizon/emit" {
		t.Errorf("emit imports outside the standard library: %v", deps)
	}
}

// TestEmitModuleOldGo: an engine whose go.mod says go 1.18 builds against
// emit through a replace, and its go.mod stays as it was, with no go.sum
// made: emit raises no engine's go line and brings no dependency.
func TestEmitModuleOldGo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a program with the go command")
	}
	abs, err := filepath.Abs(emitDir)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/engine\n\ngo 1.18\n\nrequire github.com/horizonqs/horizon/emit v0.0.0\n\n" +
		"replace github.com/horizonqs/horizon/emit => " + abs + "\n"
	main := `package main

import (
	"fmt"
	"os"

	"github.com/horizonqs/horizon/emit"
)

func main() {
	tw := emit.New(os.Stdout, "Old 1.0", false)
	if tw.On() {
		tw.Position("startpos")
		tw.Root(1, -100, 100, 1)
		tw.Enter("e2e4", 0, -100, 100)
		tw.Leave(5)
		tw.Leave(-5)
		tw.End("e2e4", 2)
	}
	var off *emit.Writer
	fmt.Fprintln(os.Stderr, "off:", off.On())
	if err := tw.Close(); err != nil {
		panic(err)
	}
}
`
	for name, text := range map[string]string{"go.mod": gomod, "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := goTool(t, dir, "build", "-o", "engine", "."); err != nil {
		t.Fatalf("go build of a go 1.18 module using emit: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(b) != gomod {
		t.Errorf("go.mod changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); !os.IsNotExist(err) {
		t.Errorf("go.sum made (%v)", err)
	}
	cmd := exec.Command(filepath.Join(dir, "engine"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "HZT 1\nengine Old 1.0\n") || !strings.Contains(stdout.String(), "end best=e2e4 nodes=2") ||
		stderr.String() != "off: false\n" {
		t.Errorf("program wrote %q, %q", stdout.String(), stderr.String())
	}
}
