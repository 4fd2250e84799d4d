#!/bin/sh
# gen-many.sh OUT STACKS: STACKS random stacks 5 to 24 frames deep over 20,000
# function names in 100 modules, so callgrind and dot (one entry per function and
# call pair) have plenty to write: about a million distinct call pairs at 60,000.
set -eu
awk -v n="$2" -v nf=20000 'BEGIN {
	srand(7)
	for (i = 0; i < n; i++) {
		d = 5 + int(rand() * 20)
		s = "main"
		for (j = 1; j < d; j++) {
			k = int(rand() * nf)
			s = s ";mod" (k % 100) "::fn_" k
		}
		print s, 1 + int(rand() * 100)
	}
}' >"$1"
