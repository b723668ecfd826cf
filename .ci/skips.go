//go:build ignore

// Skips reads 'go test -json' on stdin and prints what plain 'go test'
// prints, then every test that skipped, with why (internal/skiplist). It
// exits 1 when a test or a package failed.
//
//	go test -json ./... | go run .ci/skips.go
package main

import (
	"fmt"
	"os"

	"github.com/horizonqs/horizon/internal/skiplist"
)

func main() {
	failed, err := skiplist.Filter(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "skips:", err)
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}
