# gosplit.awk: the goroutine time split and GC summary of a Go execution trace, from
# the events `go tool trace -d FILE` prints (Go's own parse and order), following the
# rules of internal/trace's GoroutineStats (Go 1.19) one event at a time, without
# proftool's code. Prints, sorted by id:
#   G id execution network sync syscall sched sweep assist gc total
# and a last line
#   GC cycles gc_ns stw_count stw_ns stw_longest_ns
# Pending times use 0 as "none", as Go's code does.
function arg(name,   i) {
	for (i = 6; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2)
	return ""
}
function stop(g) { ex[g] += ts - ls[g]; ls[g] = 0 }
function fin(g, now) {
	if (gcs != 0) gc[g] += now - (cr[g] < gcs ? gcs : cr[g])
	if (tot[g] == 0) tot[g] = now - cr[g]
	if (ls[g] != 0) ex[g] += now - ls[g]
	if (bn[g] != 0) net[g] += now - bn[g]
	if (bs[g] != 0) syn[g] += now - bs[g]
	if (by[g] != 0) sys[g] += now - by[g]
	if (bq[g] != 0) sch[g] += now - bq[g]
	if (bw[g] != 0) swp[g] += now - bw[g]
	ls[g] = bn[g] = bs[g] = by[g] = bq[g] = bw[g] = 0
}
$1 ~ /^[0-9]+$/ {
	ts = $1 + 0; ev = $2; g = substr($4, 3) + 0; last = ts
	if (ev == "GoCreate") {
		n = arg("g") + 0; made[n] = 1; cr[n] = ts; bq[n] = ts
		ex[n] = net[n] = syn[n] = sys[n] = sch[n] = swp[n] = asg[n] = gc[n] = tot[n] = 0
		ls[n] = bn[n] = bs[n] = by[n] = bw[n] = 0; ended[n] = 0; ina[n] = 0
	} else if (ev == "GoStart" || ev == "GoStartLabel") {
		ls[g] = ts; if (bq[g] != 0) { sch[g] += ts - bq[g]; bq[g] = 0 }
	} else if (ev == "GoEnd" || ev == "GoStop") {
		fin(g, ts); ended[g] = 1
	} else if (ev ~ /^GoBlock(Send|Recv|Select|Sync|Cond)$/) {
		stop(g); bs[g] = ts
	} else if (ev == "GoSched" || ev == "GoPreempt") {
		stop(g); bq[g] = ts
	} else if (ev == "GoSleep" || ev == "GoBlock" || ev == "GoBlockGC") {
		stop(g)
	} else if (ev == "GoBlockNet") {
		stop(g); bn[g] = ts
	} else if (ev == "GoUnblock") {
		t = arg("g") + 0
		if (bn[t] != 0) { net[t] += ts - bn[t]; bn[t] = 0 }
		if (bs[t] != 0) { syn[t] += ts - bs[t]; bs[t] = 0 }
		bq[t] = ts
	} else if (ev == "GoSysBlock") {
		stop(g); by[g] = ts
	} else if (ev == "GoSysExit") {
		if (by[g] != 0) { sys[g] += ts - by[g]; by[g] = 0 }
		bq[g] = ts
	} else if (ev == "GCSweepStart") {
		if (g in made) bw[g] = ts
	} else if (ev == "GCSweepDone") {
		if ((g in made) && bw[g] != 0) { swp[g] += ts - bw[g]; bw[g] = 0 }
	} else if (ev == "GCMarkAssistStart") {
		if (g in made) { ina[g] = 1; ast[g] = ts }
	} else if (ev == "GCMarkAssistDone") {
		if ((g in made) && ina[g]) { asg[g] += ts - ast[g]; ina[g] = 0 }
	} else if (ev == "GCStart") {
		gcs = ts; ngc++; gcstart = ts
	} else if (ev == "GCDone") {
		for (k in made)
			if (!ended[k]) gc[k] += ts - (gcs < cr[k] ? cr[k] : gcs)
		gcns += ts - gcstart; gcs = 0; gcstart = -1
	} else if (ev == "GCSTWStart") {
		nstw++; stws = ts; instw = 1
	} else if (ev == "GCSTWDone") {
		stwns += ts - stws; if (ts - stws > stwmax) stwmax = ts - stws; instw = 0
	}
}
END {
	for (k in made) fin(k, last)
	if (gcstart >= 0 && ngc && gcs != 0) gcns += last - gcstart
	if (instw) { stwns += last - stws; if (last - stws > stwmax) stwmax = last - stws }
	for (k in made)
		printf "G %d %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f\n", k, ex[k], net[k], syn[k], sys[k],
			sch[k], swp[k], asg[k], gc[k], tot[k] | "sort -k2,2n"
	close("sort -k2,2n")
	printf "GC %d %.0f %d %.0f %.0f\n", ngc, gcns, nstw, stwns, stwmax
}
