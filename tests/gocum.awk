# gocum.awk: "NAME CUM" per function from `go tool pprof -top` layout (ours or pprof's),
# leaving out package runtime (runtime.*, runtime/*: the text dumps hide its parking
# frames); then "total N". A "created by" row is kept: it is a row pprof never prints.
/ of [0-9]+ total/ { for (i = 1; i <= NF; i++) if ($i == "total" && $(i - 2) == "of") total = $(i - 1) }
NF >= 6 && $1 ~ /^[0-9]/ && $2 ~ /%$/ {
	name = $6
	for (i = 7; i <= NF; i++) name = name " " $i
	sub(/ \((partial-)?inline\)$/, "", name)
	if (name ~ /^runtime[.\/]/) next
	print name, $4
}
END { print "total", total }
