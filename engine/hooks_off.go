//go:build notrace

package engine

const traceHooks = false
