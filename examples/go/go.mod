module example.com/minnow

// Minnow is an example engine outside Horizon's module: it gets the Go
// emitter the way your engine would from a checkout of Horizon beside it
// (docs/guide-go.md). go 1.18: the emitter raises no engine's go line.
go 1.18

require github.com/horizonqs/horizon/emit v0.0.0

replace github.com/horizonqs/horizon/emit => ../../emit
