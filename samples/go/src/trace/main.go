// Command trace writes the Go execution trace samples of samples/go/ (see
// samples/README): goroutines that block on channels, a mutex, loopback TCP and
// fsync, with the argument "many", a few thousand short goroutines, and with "gc",
// goroutines that allocate while the collector runs. "load" (bench/gen-gotrace.sh)
// runs rounds of a channel ring, a contended mutex and short goroutines until the trace
// file holds $TRACE_MB megabytes.
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/trace"
	"strconv"
	"sync"
	"time"
)

func chanPair(rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			time.Sleep(200 * time.Microsecond)
			pong <- v + 1
		}
		close(pong)
	}()
	for i := 0; i < rounds; i++ {
		ping <- i
		<-pong
	}
	close(ping)
}

var shared sync.Mutex

func lockHolder(rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < rounds; i++ {
		shared.Lock()
		time.Sleep(300 * time.Microsecond)
		shared.Unlock()
	}
}

func selectWait(done <-chan struct{}, tick <-chan time.Time, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-done:
			return
		case <-tick:
		}
	}
}

func tcpEcho(rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		c, err := ln.Accept()
		if err != nil {
			panic(err)
		}
		io.Copy(c, c)
		c.Close()
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 64)
	for i := 0; i < rounds; i++ {
		time.Sleep(100 * time.Microsecond)
		if _, err := c.Write(buf); err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			panic(err)
		}
	}
	c.Close()
	ln.Close()
}

func syncFile(dir string, rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	f, err := os.CreateTemp(dir, "fsync")
	if err != nil {
		panic(err)
	}
	defer os.Remove(f.Name())
	for i := 0; i < rounds; i++ {
		fmt.Fprintf(f, "line %d\n", i)
		if err := f.Sync(); err != nil {
			panic(err)
		}
	}
	f.Close()
}

func blocking(dir string) {
	var wg sync.WaitGroup
	wg.Add(7)
	go chanPair(40, &wg)
	go lockHolder(30, &wg)
	go lockHolder(30, &wg)
	go tcpEcho(40, &wg)
	go syncFile(dir, 20, &wg)
	done := make(chan struct{})
	ticker := time.NewTicker(time.Millisecond)
	go selectWait(done, ticker.C, &wg)
	go func() {
		defer wg.Done()
		time.Sleep(30 * time.Millisecond)
		close(done)
	}()
	wg.Wait()
	ticker.Stop()
}

func leaf(n int, out chan<- int) {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	out <- s
}

func many() {
	out := make(chan int)
	const n = 2000
	for i := 0; i < n; i++ {
		go leaf(i%100, out)
	}
	for i := 0; i < n; i++ {
		<-out
	}
}

var sink [][]byte

// churn allocates rounds blocks of size bytes, keeping the last few alive, so that
// the collector runs, sweeps and asks it for mark assists.
func churn(rounds, size int, wg *sync.WaitGroup) {
	defer wg.Done()
	keep := make([][]byte, 16)
	for i := 0; i < rounds; i++ {
		keep[i%len(keep)] = make([]byte, size)
	}
	sink = append(sink, keep[0])
}

func gc() {
	debug.SetGCPercent(10)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go churn(2500, 4096, &wg)
	}
	wg.Wait()
	runtime.GC()
}

// ring passes a token around n goroutines, laps times
func ring(n, laps int) {
	chans := make([]chan int, n)
	for i := range chans {
		chans[i] = make(chan int)
	}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(in, out chan int) {
			defer wg.Done()
			for v := range in {
				if v == 0 {
					close(out)
					return
				}
				out <- v - 1
			}
			close(out)
		}(chans[i], chans[(i+1)%n])
	}
	chans[0] <- n * laps
	wg.Wait()
}

func load(path string, mb int64) {
	var mu sync.Mutex
	for round := 0; ; round++ {
		ring(64, 20)
		var wg sync.WaitGroup
		for i := 0; i < 32; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < 20; k++ {
					mu.Lock()
					runtime.Gosched()
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if st, err := os.Stat(path); err == nil && st.Size() >= mb<<20 {
			return
		}
	}
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: trace blocking|many|gc|load OUT.trace")
		os.Exit(2)
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	switch os.Args[1] {
	case "blocking":
		blocking(os.TempDir())
	case "many":
		many()
	case "gc":
		gc()
	case "load":
		mb, err := strconv.ParseInt(os.Getenv("TRACE_MB"), 10, 64)
		if err != nil || mb < 1 {
			mb = 50
		}
		load(os.Args[2], mb)
	}
	trace.Stop()
	if err := f.Close(); err != nil {
		panic(err)
	}
}
