#!/bin/sh
# gen-collapsed.sh OUT STACKS: STACKS distinct deep stacks (depth 20-60) shaped like a
# real service: a few entry points, a small fan-out at each level so prefixes are
# shared, a few thousand function names in all.
set -eu
awk -v n="$2" 'BEGIN {
	srand(42)
	for (i = 0; i < n; i++) {
		d = 20 + int(rand() * 40)
		s = "main"
		for (j = 1; j < d; j++)
			s = s ";pkg" (j % 40) ".func" int(rand() * 3) + 3 * (j % 50)
		print s, 1 + int(rand() * 1000)
	}
}' | sort -u -t' ' -k1,1 >"$1"
