// main.go: a Go program serving net/http/pprof on 127.0.0.1 for the URL tests: it
// burns CPU in burnCPU, keeps allocations alive in growHeap, parks goroutines on a
// channel, writes its address to the file named by its first argument, and exits by
// itself after the seconds given as its second argument.
package main

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"strconv"
	"time"
)

var kept [][]byte

//go:noinline
func burnCPU() float64 {
	s := 0.0
	for i := 0; i < 1000000; i++ {
		s += float64(i) * 0.5
	}
	return s
}

//go:noinline
func growHeap() {
	for i := 0; i < 2000; i++ {
		kept = append(kept, make([]byte, 4096))
	}
}

func parked(ch chan int) {
	<-ch
}

func main() {
	life, _ := strconv.Atoi(os.Args[2])
	growHeap()
	ch := make(chan int)
	for i := 0; i < 10; i++ {
		go parked(ch)
	}
	go func() {
		for {
			burnCPU()
		}
	}()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], []byte(ln.Addr().String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() {
		time.Sleep(time.Duration(life) * time.Second)
		os.Exit(0)
	}()
	http.Serve(ln, nil)
}
