# planted.sh - the export confinement tests (t76xx), sourced after
# lib.sh: planted_setup ingests two probe runs on two days into t.db and
# exports them into ex; victim/ holds a file outside that must never be
# written, truncated or removed (victim_intact checks it); X runs export
# under timeout(1), so a FIFO opened blocking fails instead of hanging.
planted_setup() {
	for p in A:0.21:2026-08-28 B:1.65:2026-08-29; do
		id=${p%%:*}; rest=${p#*:}; v=${rest%%:*}; day=${rest#*:}
		mkdir -p "tree/$id"
		{
			echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
			echo "seq,unix_ns,connect_ms,result"
			echo "0,1787878800000000000,$v,ok"
			echo "1,1787878800200000000,$v,ok"
		} > "tree/$id/probe.csv"
		echo "{\"path\": \"$id\", \"trial\": 1, \"day\": \"$day\"}" \
		    > "tree/$id/meta.json"
	done
	"$PS" ingest -q --db t.db tree 2>/dev/null
	"$PS" export -q --db t.db --out ex 2>/dev/null
	mkdir -p victim
	echo precious > victim/keep.txt
	echo precious > victim/part-00042.parquet
}
X="timeout 60 $PS export --db t.db --out ex"
victim_intact() {
	ok "[ \"\$(cat victim/keep.txt)\" = precious ] && \
	    [ \"\$(cat victim/part-00042.parquet)\" = precious ] && \
	    [ \"\$(ls victim | wc -l)\" -eq 2 ]" \
	    "nothing outside ex is written, truncated or removed"
}
# every part file and manifest.json is a regular file in a real folder
export_real() {
	ok "[ -z \"\$(find ex -type l -o -type p | head -1)\" ] && \
	    [ -f ex/manifest.json ] && \
	    [ -z \"\$(find ex -name '.*.tmp' | head -1)\" ]" \
	    "ex holds no link, FIFO or temporary file afterwards"
}
