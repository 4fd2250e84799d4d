#!/bin/sh
test_description='export into ClickHouse: the fleet top in SQL equals proftool top of the merge'
. "$(dirname "$0")/lib.sh"

# A clickhouse-server of our own (Debian's, ./bootstrap --test-deps) on 127.0.0.1, in the
# trash directory, in the foreground of a background job; skipped where it cannot start.
plain_build_judges 'ClickHouse'
if ! command -v clickhouse-server >/dev/null 2>&1 || ! command -v clickhouse-client >/dev/null 2>&1; then
	test_skip 'ClickHouse' 'clickhouse-server and clickhouse-client are not installed (./bootstrap --test-deps)'
	test_done
fi
CH=$TRASH/ch
mkdir -p "$CH"
CH_PID=
trap 'test -n "$CH_PID" && kill "$CH_PID" 2>/dev/null && wait "$CH_PID" 2>/dev/null
	rm -rf "$TRASH"; test -n "$real_proftool" && rm -f "$PROFTOOL"' EXIT

start_server () {
	cat >"$CH/users.xml" <<-XML
	<yandex>
	  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
	  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
	    <profile>default</profile><quota>default</quota></default></users>
	  <quotas><default></default></quotas>
	</yandex>
	XML
	cat >"$CH/config.xml" <<-XML
	<yandex>
	  <logger><level>warning</level><console>1</console></logger>
	  <listen_host>127.0.0.1</listen_host>
	  <tcp_port>$1</tcp_port>
	  <path>$CH/data/</path>
	  <tmp_path>$CH/tmp/</tmp_path>
	  <user_files_path>$CH/user_files/</user_files_path>
	  <format_schema_path>$CH/format_schemas/</format_schema_path>
	  <users_config>$CH/users.xml</users_config>
	  <default_profile>default</default_profile>
	  <default_database>default</default_database>
	  <mark_cache_size>67108864</mark_cache_size>
	  <uncompressed_cache_size>67108864</uncompressed_cache_size>
	</yandex>
	XML
	clickhouse-server --config-file="$CH/config.xml" >"$CH/server.log" 2>&1 &
	CH_PID=$!
	i=0
	while test $i -lt 60; do
		clickhouse-client --host 127.0.0.1 --port "$1" -q "SELECT 1" >/dev/null 2>&1 && return 0
		kill -0 "$CH_PID" 2>/dev/null || break
		sleep 0.5
		i=$((i + 1))
	done
	kill "$CH_PID" 2>/dev/null && wait "$CH_PID" 2>/dev/null
	CH_PID=
	return 1
}

# a port that is free now: a few tries from one derived from our pid
PORT=
for try in 0 1 2 3 4; do
	p=$((20000 + ($$ * 7 + try * 1031) % 40000))
	if start_server $p; then
		PORT=$p
		break
	fi
done
if test -z "$PORT"; then
	test_skip 'ClickHouse' "clickhouse-server did not start: $(tail -n 1 "$CH/server.log" 2>/dev/null)"
	test_done
fi
q () {
	clickhouse-client --host 127.0.0.1 --port "$PORT" "$@"
}

S=$SAMPLES
# GROUP TYPE FILES...: the bundled samples of every readable format, in sets that share
# their sample types (what merge takes)
groups () {
	cat <<-LIST
	go-cpu cpu $S/go/cpu.pb.gz $S/go/cpu.pb
	go-heap alloc_space $S/go/heap.pb.gz
	go-goroutine goroutine $S/go/goroutine.pb.gz
	node wall $S/node/large.cpuprofile $S/node/lines.cpuprofile $S/node/small.cpuprofile $S/node/small-inlined.cpuprofile $S/node/small-legacy.cpuprofile $S/node/small-v8pn.cpuprofile $S/node/small.trace.json
	perf cpu-clock $S/perf/perfdemo-g.txt $S/perf/perfdemo-dwarf.txt $S/perf/perfdemo-dwarf-noinline.txt $S/perf/perfdemo-nog.txt $S/perf/perfdemo-header.txt $S/perf/perfdemo-mmap-events.txt $S/perf/perfdemo-task-events.txt
	perf-kernel cpu-clock:k $S/perf/perfdemo-kernel.txt
	perf-faults page-faults $S/perf/perfdemo-period.txt
	stackprof cpu $S/stackprof/cpu-raw.dump $S/stackprof/deep-raw.dump $S/stackprof/cpu-raw.json
	stackprof-wall wall $S/stackprof/wall-raw.dump
	stackprof-objects objects $S/stackprof/object-raw.dump
	collapsed samples $S/collapsed/perfdemo-g.collapsed
	LIST
}
groups >"$TRASH/groups"

test_expect_success 'the tables of the man page are created' '
	q -n -q "
	CREATE TABLE stacks (stack_id UInt64, depth UInt32, function String,
	    file String, start_line Int64, line Int64)
	    ENGINE = ReplacingMergeTree ORDER BY (stack_id, depth);
	CREATE TABLE samples (profile_id UInt64, stack_id UInt64,
	    sample_type String, unit String, value Int64, time Int64,
	    label_keys Array(String), label_values Array(String))
	    ENGINE = MergeTree ORDER BY (sample_type, stack_id);
	CREATE TABLE profiles (profile_id UInt64, source String, start Int64,
	    duration Int64, sample_types Array(String), default_type String)
	    ENGINE = ReplacingMergeTree ORDER BY profile_id;"'

# each set exported apart (as machines would), all loaded into the same tables
while read -r name type files; do
	test_expect_success "$name: export (tsv) and load" "
		\"\$PROFTOOL\" export -o \"\$TRASH/$name\" $files &&
		for t in stacks samples profiles; do
			q -q \"INSERT INTO \$t FORMAT TabSeparated\" <\"\$TRASH/$name/\$t.tsv\" || exit 1
		done"
done <"$TRASH/groups"

test_expect_success 'csv exports load too: the same rows as tsv' '
	"$PROFTOOL" export --to csv -o csv "$S/go/cpu.pb.gz" &&
	q -q "CREATE TABLE samples_csv AS samples" &&
	q -q "INSERT INTO samples_csv FORMAT CSV" <csv/samples.csv &&
	q -q "SELECT * FROM samples_csv ORDER BY stack_id, sample_type, value, label_values FORMAT TabSeparated" >actual &&
	"$PROFTOOL" export -o tsv "$S/go/cpu.pb.gz" && q -q "CREATE TABLE samples_tsv AS samples" &&
	q -q "INSERT INTO samples_tsv FORMAT TabSeparated" <tsv/samples.tsv &&
	q -q "SELECT * FROM samples_tsv ORDER BY stack_id, sample_type, value, label_values FORMAT TabSeparated" >expect &&
	test_cmp expect actual'

# the fleet top of the man page, for one set (by source) and type, as CSV rows
fleet_top () {
	where="sample_type = '$2' AND profile_id IN (SELECT profile_id FROM profiles WHERE source IN ($1))"
	q -q "
	SELECT function, file, start_line, flat, cum FROM
	 (SELECT function, file, start_line, sum(v) AS cum
	  FROM (SELECT DISTINCT stack_id, function, file, start_line FROM stacks)
	  ALL INNER JOIN (SELECT stack_id, sum(value) AS v FROM samples
	                  WHERE $where GROUP BY stack_id) USING stack_id
	  GROUP BY function, file, start_line)
	ALL LEFT JOIN
	 (SELECT function, file, start_line, sum(v) AS flat
	  FROM (SELECT stack_id, argMax(function, depth) AS function,
	               argMax(file, depth) AS file,
	               argMax(start_line, depth) AS start_line
	        FROM stacks GROUP BY stack_id)
	  ALL INNER JOIN (SELECT stack_id, sum(value) AS v FROM samples
	                  WHERE $where GROUP BY stack_id) USING stack_id
	  GROUP BY function, file, start_line)
	USING function, file, start_line
	FORMAT CSV"
}

while read -r name type files; do
	test_expect_success "$name: the SQL fleet top equals proftool top of proftool merge, value for value" "
		sources=\$(for f in $files; do printf \"'%s',\" \"\$f\"; done) &&
		fleet_top \"\${sources%,}\" '$type' | LC_ALL=C sort >sql &&
		test \"\$(wc -l <sql)\" -gt 0 &&
		\"\$PROFTOOL\" merge -o merged.pb.gz $files &&
		\"\$PROFTOOL\" top --format csv -n 0 --sample-index '$type' merged.pb.gz |
			sed 1d | cut -d, -f1-4,6 | LC_ALL=C sort >top &&
		test_cmp top sql"
done <"$TRASH/groups"

test_expect_success 'equal stacks of different exports share their ids' '
	q -q "SELECT count() FROM (SELECT stack_id FROM stacks GROUP BY stack_id HAVING count() > max(depth) + 1)" >actual &&
	test "$(cat actual)" -gt 0'

test_done
