// hot_test.go: a Go test for `proftool record -- go test`: hotSum takes nearly all the time.
package hotpkg

import "testing"

//go:noinline
func hotSum(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i) * 0.5
	}
	return s
}

func TestHot(t *testing.T) {
	total := 0.0
	for k := 0; k < 200; k++ {
		total += hotSum(2000000)
	}
	if total == 0 {
		t.Fatal("no work")
	}
}
