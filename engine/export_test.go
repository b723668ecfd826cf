package engine

// TestPositions gives the external tests (package engine_test, which may
// import packages that import engine, such as uci) the test positions.
var TestPositions = testPositions
