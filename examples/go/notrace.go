//go:build notrace

package main

// traced is false: the tracing calls compile to nothing (see traced.go).
const traced = false
