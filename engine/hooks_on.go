//go:build !notrace

package engine

// traceHooks is false only in builds with the notrace tag, which compile the
// tracer calls out; benchmarks compare the two to price the nil checks.
const traceHooks = true
