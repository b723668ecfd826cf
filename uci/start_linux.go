package uci

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// start starts cmd so that the kernel kills it when Horizon dies, however
// it dies: an engine runs in a process group of its own (trace --engine),
// which a SIGKILL of Horizon does not reach, and would run on, reparented
// to init. The parent-death signal fires when the thread that forked the
// child exits, not the process: Go ends a thread when a goroutine locked
// to it returns, and any goroutine may run on any unlocked thread, so
// every engine is started from one goroutine locked to its thread for the
// life of the process.
func start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	starterOnce.Do(func() { go starter() })
	done := make(chan error, 1)
	starts <- startReq{cmd, done}
	return <-done
}

type startReq struct {
	cmd  *exec.Cmd
	done chan<- error
}

var (
	starts      = make(chan startReq)
	starterOnce sync.Once
)

// starter starts the processes start is given, on its own thread, which
// it never gives back.
func starter() {
	runtime.LockOSThread()
	for r := range starts {
		r.done <- r.cmd.Start()
	}
}
