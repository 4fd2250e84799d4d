// block_test.go: a Go test for `proftool record --mode trace -- go test`: waitForToken
// waits on a channel that a sender fills every 2 ms, 20 times.
package blockpkg

import (
	"testing"
	"time"
)

func sender(ch chan<- int, n int) {
	for i := 0; i < n; i++ {
		time.Sleep(2 * time.Millisecond)
		ch <- i
	}
}

//go:noinline
func waitForToken(ch <-chan int) int {
	return <-ch
}

func TestBlock(t *testing.T) {
	ch := make(chan int)
	go sender(ch, 20)
	for i := 0; i < 20; i++ {
		if waitForToken(ch) != i {
			t.Fatal("out of order")
		}
	}
}
