#!/bin/sh
test_description='merge split over GNU parallel jobs: groups merged again equal one flat merge'
. "$(dirname "$0")/lib.sh"

# The recipe of the man page ("Merging a fleet in parallel") with local job slots for
# its --sshlogin hosts: the list in groups of N lines, each merged from its standard
# input, the parts merged again in job order.
if ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
	test_skip 'GNU parallel recipe' 'GNU parallel is not installed (./bootstrap --test-deps)'
	test_done
fi
HOME=$TRASH # parallel keeps its state (and the citation notice) under $HOME
export HOME

# recipe N [OPTIONS]: the parts of list, merged again into fleet.pb.gz; OPTIONS is one
# string of merge options for the first level, quoted for the shell
recipe () {
	parallel --will-cite -j 2 --pipe -N "$1" \
		"\"\$PROFTOOL\" merge ${2-} --files-from - -o \"\$PWD/part.{#}.pb.gz\"" <list &&
	ls part.*.pb.gz | sort -t. -k2,2n >parts &&
	test "$(wc -l <parts)" -gt 1 &&
	"$PROFTOOL" merge --files-from parts -o fleet.pb.gz
}
export PROFTOOL

test_expect_success 'node profiles in groups of 2 over 2 job slots: the bytes of one merge' '
	ls "$SAMPLES"/node/*.cpuprofile | sort >list &&
	recipe 2 && "$PROFTOOL" merge --files-from list -o flat.pb.gz &&
	cmp flat.pb.gz fleet.pb.gz'

test_expect_success 'perf profiles of one event in groups of 3: the bytes of one merge' '
	for f in g g-noeol dwarf dwarf-noinline header nog mmap-events task-events; do
		echo "$SAMPLES/perf/perfdemo-$f.txt"
	done >list &&
	recipe 3 && "$PROFTOOL" merge --files-from list -o flat.pb.gz &&
	cmp flat.pb.gz fleet.pb.gz'

LABELS="--label version=1.2 --label-from-path 'host=^hosts/([^/]+)/'"
export LABELS
test_expect_success '60 Go profiles on 12 hosts, labelled from their paths, in groups of 7' '
	i=0 && while test $i -lt 60; do
		d=hosts/web-$((i % 12)) && mkdir -p $d &&
		cp "$SAMPLES/go/cpu.pb.gz" $d/cpu-$i.pb.gz && i=$((i + 1)) || exit 1
	done &&
	find hosts -name "*.pb.gz" | sort >list &&
	recipe 7 "$LABELS" &&
	eval "\"\$PROFTOOL\" merge $LABELS --files-from list -o flat.pb.gz" &&
	cmp flat.pb.gz fleet.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 --tag host=web-3 fleet.pb.gz >actual &&
	"$PROFTOOL" merge -o five.pb.gz hosts/web-3/*.pb.gz &&
	"$PROFTOOL" top --format csv -n 0 five.pb.gz >expect && test_cmp expect actual'

test_done
