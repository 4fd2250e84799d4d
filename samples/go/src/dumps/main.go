// Command dumps writes Go's text dumps for proftool's samples (see ../../make.sh):
// goroutine dumps (debug=2, debug=1 and the debug=0 protobuf, written one after the
// other while every goroutine but the writer is parked), the debug=1 text of the
// threadcreate, block, mutex and heap profiles, and crash output (panic, a recovered
// and re-raised panic, a deadlock's fatal error) on stderr.
//
// Usage:
//
//	dumps OUTDIR [WAIT]   park goroutines (DUMPS_WORKERS of them started in a loop,
//	                      default 100), wait WAIT (a duration, default 0), write the
//	                      dumps into OUTDIR, then, if DUMPS_SIGQUIT=1, send itself
//	                      SIGQUIT (the runtime prints every goroutine and exits)
//	dumps panic | repanic | deadlock   crash the way the name says
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"syscall"
	"time"
)

var (
	mu    sync.Mutex
	never = make(chan int)
	full  = make(chan int)
	sink  []byte
)

// recvLoop waits for a job that never comes: "chan receive".
func recvLoop(id int, jobs <-chan int) {
	for j := range jobs {
		fmt.Println(id, j)
	}
}

// sendResult blocks on an unbuffered channel nobody reads: "chan send".
func sendResult(v int) {
	full <- v
}

// waitEither blocks in a select on two channels: "select".
func waitEither(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case v := <-b:
		return v
	}
}

// lockShared waits for the mutex main holds: "sync.Mutex.Lock" (go1.19: "semacquire").
func lockShared() {
	mu.Lock()
	defer mu.Unlock()
	sink = append(sink, 1)
}

// nap sleeps for an hour: "sleep".
func nap() {
	time.Sleep(time.Hour)
}

// serve accepts connections: "IO wait" in the network poller.
func serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go handle(c)
	}
}

// handle reads a request that never comes: "IO wait".
func handle(c net.Conn) {
	buf := make([]byte, 512)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}

// pinned stays on its OS thread while it waits: "chan receive, locked to thread".
func pinned() {
	runtime.LockOSThread()
	<-never
}

// worker is started many times in a loop; its arguments differ, its stack does not.
func worker(id int, scale float64, name string, jobs <-chan int) {
	recvLoop(id, jobs)
}

// nested makes a deeper stack that ends in a channel receive.
func nested(depth int) {
	if depth > 0 {
		nested(depth - 1)
		return
	}
	<-never
}

// contend makes block and mutex profile events: goroutines take turns on a mutex and
// wait on a channel, so both profiles have samples.
func contend() {
	var m sync.Mutex
	var wg sync.WaitGroup
	ch := make(chan int)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				m.Lock()
				time.Sleep(20 * time.Microsecond)
				m.Unlock()
			}
		}()
	}
	go func() {
		for i := 0; i < 20; i++ {
			time.Sleep(100 * time.Microsecond)
			ch <- i
		}
	}()
	for i := 0; i < 20; i++ {
		<-ch
	}
	wg.Wait()
}

// keep allocates memory that stays live for the heap profile.
func keep(n int) [][]byte {
	out := make([][]byte, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, make([]byte, 4096))
	}
	return out
}

func write(dir, name string, fn func(io.Writer) error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err == nil {
		err = fn(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func lookup(name string, debug int) func(io.Writer) error {
	return func(w io.Writer) error { return pprof.Lookup(name).WriteTo(w, debug) }
}

// park starts every kind of waiting goroutine and returns once they are all parked.
func park() {
	mu.Lock() // held by main: lockShared waits for ever
	jobs := make(chan int)
	for i := 0; i < 3; i++ {
		go recvLoop(i, jobs)
	}
	for i := 0; i < 2; i++ {
		go sendResult(i)
	}
	a, b := make(chan int), make(chan int)
	for i := 0; i < 2; i++ {
		go waitEither(a, b)
	}
	go lockShared()
	go nap()
	go nap()
	go pinned()
	go nested(20)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go serve(ln)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go handle(c)
	names := []string{"alpha", "beta", "gamma"}
	n := 100
	if v, err := strconv.Atoi(os.Getenv("DUMPS_WORKERS")); err == nil {
		n = v
	}
	for i := 0; i < n; i++ {
		go worker(i, float64(i)/4, names[i%3], jobs)
	}
	// wait until the runtime reports every goroutine started above as waiting
	for k := 0; k < 200; k++ {
		time.Sleep(10 * time.Millisecond)
	}
}

func dumpAll(dir string, wait time.Duration) {
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	runtime.MemProfileRate = 64 * 1024
	sink = append(sink, make([]byte, 1)...)
	kept := keep(256)
	contend()
	park()
	// the runtime notes since when a goroutine waits during a GC: one now, before WAIT
	runtime.GC()
	time.Sleep(wait)
	// the three goroutine forms back to back: nothing but this goroutine runs
	write(dir, "goroutine.debug2.txt", lookup("goroutine", 2))
	write(dir, "goroutine.debug1.txt", lookup("goroutine", 1))
	write(dir, "goroutine-text.pb.gz", lookup("goroutine", 0))
	write(dir, "threadcreate.debug1.txt", lookup("threadcreate", 1))
	write(dir, "block.debug1.txt", lookup("block", 1))
	write(dir, "mutex.debug1.txt", lookup("mutex", 1))
	runtime.GC()
	write(dir, "heap.debug1.txt", lookup("heap", 1))
	write(dir, "heap-text.pb.gz", lookup("heap", 0))
	runtime.KeepAlive(kept)
	if os.Getenv("DUMPS_SIGQUIT") == "1" {
		syscall.Kill(os.Getpid(), syscall.SIGQUIT)
		time.Sleep(time.Minute)
	}
}

type order struct {
	id    int
	items []string
}

// checkout fails on an empty order: the panic happens three frames down.
func checkout(o *order, total float64) float64 {
	return total / float64(len(o.items)) * float64(o.items[0][0])
}

func process(orders []*order) {
	for _, o := range orders {
		checkout(o, 12.5)
	}
}

func guarded(orders []*order) {
	defer func() {
		if r := recover(); r != nil {
			panic(r) // printed as "panic: ... [recovered]"
		}
	}()
	process(orders)
}

func crash(mode string) {
	jobs := make(chan int)
	for i := 0; i < 3; i++ {
		go recvLoop(i, jobs)
	}
	if mode != "deadlock" {
		go nap() // a sleeping goroutine would keep the deadlock from being seen
	}
	time.Sleep(50 * time.Millisecond)
	orders := []*order{{1, []string{"a"}}, {2, nil}}
	done := make(chan bool)
	switch mode {
	case "panic":
		go func() { process(orders); done <- true }()
		<-done
	case "repanic":
		guarded(orders)
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: dumps OUTDIR [WAIT] | panic | repanic | deadlock")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "deadlock":
		// the only goroutine waits for itself: the runtime stops the program
		var m sync.Mutex
		m.Lock()
		m.Lock()
	case "panic", "repanic":
		crash(os.Args[1])
		return
	}
	var wait time.Duration
	if len(os.Args) > 2 {
		d, err := time.ParseDuration(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		wait = d
	}
	dumpAll(os.Args[1], wait)
}
