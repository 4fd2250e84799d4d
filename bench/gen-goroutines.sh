#!/bin/sh
# gen-goroutines.sh OUT N: a goroutine?debug=2 dump of N goroutines made from the real
# samples/go/goroutine.debug2.txt: its goroutine blocks repeated with new ids and, for
# every 7th block of each replica, a leaf function named per replica family (of 1021),
# so that unique stacks grow into the thousands, as in a big server's dump.
set -eu
out=$1
n=$2
src=$(cd "$(dirname "$0")/.." && pwd)/samples/go/goroutine.debug2.txt
awk -v want="$n" '
	/^goroutine [0-9]+ \[/ { nb++; hdr[nb] = substr($0, index($0, " [")); leaf[nb] = ""; body[nb] = ""; next }
	nb && $0 != "" { if (leaf[nb] == "") leaf[nb] = $0; else body[nb] = body[nb] $0 "\n" }
	END {
		for (i = 0; i < want; i++) {
			b = i % nb + 1
			l = leaf[b]
			if (b % 7 == 3) { p = index(l, "("); l = substr(l, 1, p - 1) "_" int(i / nb) % 1021 substr(l, p) }
			printf "goroutine %d%s\n%s\n%s\n", i + 2, hdr[b], l, body[b]
		}
	}' "$src" >"$out"
