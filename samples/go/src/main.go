// Command proftool-sample is a small deterministic workload used to
// produce the real runtime/pprof profiles in samples/go/ (see ../make.sh).
//
// Its shape is fixed on purpose so that the profiles always contain the
// same functions:
//   - a hot leaf (hotLeaf) reached by several paths: directly from spin,
//     from the direct recursion descend, and from the mutual recursion
//     ping -> pong -> ping;
//   - small functions the compiler inlines (step, mix, clamp), so that
//     CPU-profile locations carry several lines (inlined frames); fold is
//     inlined into foldAll and also called through a function value
//     (apply), so it is inlined on one path and a real frame on another;
//   - two goroutines running under pprof labels worker=alpha and
//     worker=beta (pprof.Do), plus unlabelled work on the main goroutine;
//   - a heap workload with allocations that are kept (in use) and
//     allocations that are dropped (alloc only);
//   - parked goroutines in distinct functions for the goroutine profile.
//
// Usage: proftool-sample OUTDIR
// writes OUTDIR/cpu.pb.gz, OUTDIR/heap.pb.gz, OUTDIR/goroutine.pb.gz.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
)

// sink keeps results alive so the compiler cannot drop the work.
var sink uint64

// step is a tiny LCG step; the compiler inlines it.
func step(x uint64) uint64 {
	return x*6364136223846793005 + 1442695040888963407
}

// mix is inlined too and itself inlines step: two levels of inlining.
func mix(x, y uint64) uint64 {
	return step(x^(y<<7)) ^ (y >> 3)
}

// clamp is inlined into its callers.
func clamp(n int) int {
	if n > 20 {
		return 20
	}
	return n
}

// hotLeaf is the hot leaf: the heaviest self cost.
//
//go:noinline
func hotLeaf(seed uint64, n int) uint64 {
	x := seed
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// spin burns CPU in its own loop through inlined step/mix, then calls
// hotLeaf (path 1 into hotLeaf).
//
//go:noinline
func spin(seed uint64, n int) uint64 {
	x := seed
	for i := 0; i < n; i++ {
		x = mix(x, uint64(i))
	}
	return hotLeaf(x, n)
}

// descend is direct recursion (descend -> descend -> ... -> hotLeaf),
// path 2 into hotLeaf.
//
//go:noinline
func descend(depth int, seed uint64) uint64 {
	if depth == 0 {
		return hotLeaf(seed, 20000)
	}
	return descend(depth-1, step(seed)) + 1
}

// ping and pong are mutual recursion (ping -> pong -> ping -> ...),
// path 3 into hotLeaf.
//
//go:noinline
func ping(depth int, seed uint64) uint64 {
	if depth == 0 {
		return hotLeaf(seed, 20000)
	}
	return pong(depth-1, seed+1)
}

//go:noinline
func pong(depth int, seed uint64) uint64 {
	if depth == 0 {
		return spin(seed, 10000)
	}
	return ping(depth-1, seed^0x5bd1e995)
}

// fold is the murmur3 finaliser. It is inlined into foldAll but called
// as a real function through a function value by apply, so pprof marks
// it "(partial-inline)".
func fold(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

//go:noinline
func foldAll(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = fold(x)
	}
	return x
}

// apply calls f through a function value, which is never inlined.
//
//go:noinline
func apply(f func(uint64) uint64, x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = f(x)
	}
	return x
}

// work is one unit of the CPU workload; every path is taken each round.
//
//go:noinline
func work(rounds int, seed uint64) uint64 {
	var acc uint64
	for r := 0; r < rounds; r++ {
		acc += spin(seed+uint64(r), 20000)
		acc += descend(clamp(r%8+4), acc)
		acc += ping(clamp(r%6+3), acc)
		acc += foldAll(acc, 3000)
		acc += apply(fold, acc, 3000)
	}
	return acc
}

// worker runs work under the pprof labels given by the caller.
func worker(ctx context.Context, name string, rounds int, wg *sync.WaitGroup) {
	defer wg.Done()
	pprof.Do(ctx, pprof.Labels("worker", name), func(context.Context) {
		r := work(rounds, uint64(len(name)))
		sink += r
	})
}

func cpuPhase(dir string) error {
	f, err := os.Create(filepath.Join(dir, "cpu.pb.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go worker(context.Background(), "alpha", 6000, &wg)
	go worker(context.Background(), "beta", 3000, &wg)
	// Unlabelled work on the main goroutine.
	sink += work(3000, 7)
	wg.Wait()
	pprof.StopCPUProfile()
	return f.Close()
}

// Heap workload. retained keeps allocations in use; the rest is garbage.
var retained [][]byte

type node struct {
	next *node
	val  [6]uint64
}

var keptList *node

//go:noinline
func allocKeep(n, size int) {
	for i := 0; i < n; i++ {
		retained = append(retained, make([]byte, size))
	}
}

//go:noinline
func allocDrop(n, size int) {
	for i := 0; i < n; i++ {
		b := make([]byte, size)
		b[0] = byte(i)
		sink += uint64(b[0])
	}
}

//go:noinline
func buildList(n int) *node {
	var head *node
	for i := 0; i < n; i++ {
		head = &node{next: head}
		head.val[0] = uint64(i)
	}
	return head
}

// allocVia reaches allocKeep and allocDrop by a second path.
//
//go:noinline
func allocVia(n int) {
	allocKeep(n, 4096)
	allocDrop(n, 1<<16)
}

func heapPhase(dir string) error {
	allocKeep(100, 1024)
	allocDrop(1000, 512)
	allocVia(10)
	keptList = buildList(500)
	_ = buildList(300) // garbage
	runtime.GC()       // the heap profile reports as of the last GC
	f, err := os.Create(filepath.Join(dir, "heap.pb.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		return err
	}
	return f.Close()
}

// Goroutine workload: goroutines parked in distinct functions.
//
//go:noinline
func parkRecv(ready *sync.WaitGroup, ch chan struct{}) {
	ready.Done()
	<-ch
}

//go:noinline
func parkSelect(ready *sync.WaitGroup, a, b chan struct{}) {
	ready.Done()
	select {
	case <-a:
	case <-b:
	}
}

//go:noinline
func parkMutex(ready *sync.WaitGroup, mu *sync.Mutex) {
	ready.Done()
	mu.Lock()
	mu.Unlock()
}

func goroutinePhase(dir string) error {
	stop := make(chan struct{})
	other := make(chan struct{})
	var mu sync.Mutex
	var ready sync.WaitGroup
	mu.Lock()
	ready.Add(6)
	for i := 0; i < 3; i++ {
		go parkRecv(&ready, stop)
	}
	for i := 0; i < 2; i++ {
		go parkSelect(&ready, stop, other)
	}
	go pprof.Do(context.Background(), pprof.Labels("worker", "parked"), func(context.Context) {
		parkMutex(&ready, &mu)
	})
	ready.Wait()
	// Let every goroutine reach its blocking point.
	for i := 0; i < 100; i++ {
		runtime.Gosched()
	}
	f, err := os.Create(filepath.Join(dir, "goroutine.pb.gz"))
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.Lookup("goroutine").WriteTo(f, 0); err != nil {
		return err
	}
	close(stop)
	mu.Unlock()
	return f.Close()
}

func main() {
	// Record every allocation, so that the heap profile is exact.
	runtime.MemProfileRate = 1
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: proftool-sample OUTDIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	for _, phase := range []func(string) error{cpuPhase, heapPhase, goroutinePhase} {
		if err := phase(dir); err != nil {
			fmt.Fprintln(os.Stderr, "proftool-sample:", err)
			os.Exit(1)
		}
	}
}
