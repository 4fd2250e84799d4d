# deep-chain.awk: a .cpuprofile of a chain of D functions whose last one calls L leaves,
# each leaf sampled once (awk -v D=20000 -v L=20000 -f deep-chain.awk): one stack per
# leaf, each 20,000 frames deep, in a file of 6 MB.
BEGIN {
	printf "{\"nodes\":["
	for (i = 1; i <= D + L; i++) {
		if (i > 1) printf ","
		name = i == 1 ? "(root)" : (i <= D ? "chain" i : "leaf" i)
		printf "{\"id\":%d,\"callFrame\":{\"functionName\":\"%s\",\"scriptId\":\"1\",\"url\":\"x.js\",\"lineNumber\":%d,\"columnNumber\":0},\"hitCount\":%d", i, name, i, (i > D ? 1 : 0)
		if (i < D) printf ",\"children\":[%d]", i + 1
		else if (i == D) { printf ",\"children\":["; for (j = D + 1; j <= D + L; j++) printf "%s%d", (j > D + 1 ? "," : ""), j; printf "]" }
		printf "}"
	}
	printf "],\"startTime\":0,\"endTime\":%d,\"samples\":[", L * 1000
	for (j = D + 1; j <= D + L; j++) printf "%s%d", (j > D + 1 ? "," : ""), j
	printf "],\"timeDeltas\":["
	for (j = 1; j <= L; j++) printf "%s1000", (j > 1 ? "," : "")
	printf "]}\n"
}
