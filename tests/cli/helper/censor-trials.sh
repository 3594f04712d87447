# censor-trials.sh - sourced by t2702/t2703: the articles' design, 3 trials
# x 300 probes with 3 timeouts per trial (1 % loss) against a clean path.
# lossy NAME ITYPE COND BASE TIMEOUTS SALT writes trials 1-3 of
# tree/NAME-ITYPE-COND: pathprobe CSVs (timeout 1 s) whose successes are
# BASE + 0.02 * ((37 i + 11 t) mod 100) ms plus a 1 ms tail on every
# 50th probe (deterministic: no awk rand()), TIMEOUTS of them timed out
# (seq 50, 150, 250); SALT shifts the probe times so that no two files
# have the same content (ingest would take one for a copy of the other).
lossy() {
	for t in 1 2 3; do
		d=tree/$1-$2-$3/trial$t
		mkdir -p "$d"
		echo "{\"path\": \"$1\", \"trial\": $t, \"tool\": \"pathprobe\"," \
		    "\"instance_type\": \"$2\", \"condition\": \"$3\"}" \
		    > "$d/meta.json"
		awk -v n=300 -v k="$5" -v t="$t" -v base="$4" -v salt="$6" 'BEGIN {
			printf "# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
			printf "count=%d interval_s=0.2 timeout_s=1 ", n
			printf "start=2026-08-29T02:20:00Z\n"
			print "seq,unix_ns,connect_ms,result"
			for (i = 0; i < n; i++) {
				ns = 1787970000e9 + salt * 1e12 + t * 1e11 + i * 2e8
				if (i % 100 == 50 && int(i / 100) < k) {
					printf "%d,%.0f,,timeout\n", i, ns
					continue
				}
				v = base + 0.02 * ((37 * i + 11 * t) % 100)
				if (i % 50 == 7)
					v += 1
				printf "%d,%.0f,%.3f,ok\n", i, ns, v
			}
		}' > "$d/probe.csv"
	done
}
# A is 2 ms slower than B; on m5 A loses 1 % (3 of 300 per trial) at
# c=1; everything else is clean.
censor_trials_tree() {
	lossy A m5 c1 22 3 1
	lossy B m5 c1 20 0 2
	lossy A c5 c1 22 0 3
	lossy B c5 c1 20 0 4
	lossy A m5 c16 24 0 5
	lossy B m5 c16 21 0 6
}
