//go:build !horizonassert

package engine

const asserts = false
