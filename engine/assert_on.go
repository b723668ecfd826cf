//go:build horizonassert

package engine

// asserts is true only in builds with the horizonassert tag (go test
// -tags horizonassert ./engine/, as CI runs once): the search then checks
// the invariants it assumes, at a cost no release build pays.
const asserts = true
