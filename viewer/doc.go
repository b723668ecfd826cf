// Package viewer is Horizon's terminal tree browser: a tcell screen over a
// trace file in which an engine author finds where a quiescence search
// explodes and why.
//
// The viewer holds only what is on screen: the nodes the user opened, a
// bounded cache of pages of their children and a few positions. Everything
// else stays in the trace file and is read through trace.Reader, so memory
// does not grow with the trace.
//
// A Model owns the state (runs, trees, cursor, expanded set, scroll) and has
// Draw(tcell.Screen) and Handle(tcell.Event); Run is the event loop that ties
// a Model to a screen.
package viewer
