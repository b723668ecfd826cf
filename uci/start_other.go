//go:build !linux

package uci

import "os/exec"

// start starts cmd. Only Linux has a parent-death signal: elsewhere an
// engine in a process group of its own outlives a Horizon that is killed
// with SIGKILL.
func start(cmd *exec.Cmd) error { return cmd.Start() }
