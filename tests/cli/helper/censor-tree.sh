# censor-tree.sh - sourced by t2700/t2701: probe NAME TRIAL N TIMEOUTS
# REFUSED writes tree/NAME/trialTRIAL/probe.csv, a pathprobe CSV of N
# probes (timeout 400 ms): the successes 9.000, 9.005, ... ms, then the
# timeouts, then the refusals; censor_tree writes the boundary cases of
# (N attempts, T timeouts, the percentile on the edge).
probe() {
	d=tree/$1/trial$2
	mkdir -p "$d"
	echo "{\"path\": \"$1\", \"trial\": $2, \"tool\": \"pathprobe\"}" \
	    > "$d/meta.json"
	awk -v n="$3" -v t="$4" -v r="$5" -v tr="$2" 'BEGIN {
		printf "# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
		printf "count=%d interval_s=0.2 timeout_s=0.4 ", n
		printf "start=2026-08-29T02:20:00Z\n"
		print "seq,unix_ns,connect_ms,result"
		ok = n - t - r
		for (i = 0; i < n; i++) {
			ns = 1787970000e9 + tr * 1e11 + i * 2e8
			if (i < ok)
				printf "%d,%.0f,%.3f,ok\n", i, ns, 9 + i * 0.005
			else if (i < ok + t)
				printf "%d,%.0f,,timeout\n", i, ns
			else
				printf "%d,%.0f,,refused\n", i, ns
		}
	}' > "$d/probe.csv"
}
censor_tree() {
	probe P300 1 300 3 0	# p99: oha index 297, type 7 296.01 -> 297
	probe Q300 1 300 2 0	# p99: not censored
	probe P100 1 100 1 0	# p99
	probe P20 1 20 1 0	# p95
	probe P2000 1 2000 20 0	# p99
	probe Q2000 1 2000 19 0	# p99: not
	probe P90 1 100 10 0	# p90: exactly, not by rounding luck
	probe Q90 1 100 9 0	# p90: not
	probe K5 1 5 3 0	# p30: type 7 reads rank 2 (h = 1.2), oha rank 1
	probe R300 1 300 0 30	# refusals: fast failures, censor nothing
	probe T 1 100 0 0	# --pool trials: trial 2 has 2 % timeouts
	probe T 2 100 2 0
	probe T 3 100 0 0
}
