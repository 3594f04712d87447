# t1610: a gzip bomb: 100 gzip members of 64 MiB of zeros,
# 6.4 GiB from 6.5 MB, used to be inflated up to the 4 GiB limit (4.7 GB
# of memory) before it was refused.  It is refused while streaming, once
# past 32 MiB, because it expands more than 100 times; a real file that
# compresses well (the fixtures: at most 8 times) is read as before.
# Outside the sanitizer build, ingest runs with its address space
# limited to 1.5 GB, so buffering the bomb fails the test.

mkdir -p tree/A tree/B
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
echo '{"path": "B", "trial": 1}' > tree/B/meta.json
"$PY" - <<'PY'
import gzip, zlib
member = gzip.compress(b"\0" * (64 << 20), compresslevel=9)
with open("tree/A/bomb.json.gz", "wb") as f:
    for _ in range(100):
        f.write(member)
PY
gzip -9 -c "$SAMPLES/iperf3/3.12/tcp_P4.json" > tree/B/tcp_P4.json.gz
ls -l tree/A/bomb.json.gz | awk '{print "# bomb: " $5 " bytes"}'

limit=""
case "$PS" in
*asan*) ;;	# ASan reserves terabytes of address space: no limit there
*) limit="ulimit -v 1500000;" ;;
esac
run sh -c "$limit exec timeout 300 \"\$0\" ingest --db b.db tree" "$PS"
expect_code 1 "the bomb is refused: exit 1"
expect_err_has "tree/A/bomb.json.gz: gzip data expands more than 100 times" "it is named, with the reason"
expect_err_lacks "too large" "it is stopped by the ratio, not at the 1 GiB limit"
expect_sql b.db "SELECT status FROM files WHERE relpath = 'tree/A/bomb.json.gz'" rejected "recorded as rejected"
expect_sql b.db "SELECT count(*) FROM run_view WHERE path = 'B'" 1 "the compressed real file is read"
test_done
