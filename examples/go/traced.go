//go:build !notrace

package main

// traced is false under -tags notrace, and every tracing call is written
// `if traced && tw.On()`: the notrace build compiles them away, the one
// this benchmark compares with tracing compiled in but off
// (examples/bench_test.go).
const traced = true
