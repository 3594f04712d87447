# t1698: a .json.gz with bytes after its gzip member was rejected as
# "broken gzip data: incorrect header check", which sends the reader
# after a broken member that is not there.  Such bytes are refused with
# what they are (how many, from which byte); concatenated members are
# one file, and zero padding after the last is nothing, as to gzip(1).

J="$SAMPLES/iperf3/3.12/tcp_P1.json"
mkdir -p junk/A pad/A two/A
for d in junk pad two; do echo '{"path": "A", "trial": 1}' > $d/A/meta.json; done
gzip -9 -c "$J" > junk/A/tcp_P1.json.gz
size=$(wc -c < junk/A/tcp_P1.json.gz)
printf 'TRAILING JUNK' >> junk/A/tcp_P1.json.gz
run "$PS" ingest --db junk.db junk
expect_code 1 "trailing junk: exit 1"
expect_err_has "tcp_P1.json.gz: 13 bytes after the gzip data (from byte $size) that are not another gzip member" \
    "the junk is named with its size and place"
expect_err_lacks "incorrect header check" "not called a broken member"
expect_sql junk.db "SELECT count(*) FROM runs" 0 "nothing stored"
expect_sql junk.db "SELECT status FROM files" rejected "the file is recorded as rejected"

gzip -9 -c "$J" > pad/A/tcp_P1.json.gz
head -c 512 /dev/zero >> pad/A/tcp_P1.json.gz
run "$PS" ingest --db pad.db pad
expect_code 0 "zero padding after the member: stored"
expect_sql pad.db "SELECT count(*) FROM runs" 1 "its run"

head -c 2000 "$J" | gzip -c > two/A/tcp_P1.json.gz
tail -c +2001 "$J" | gzip -c >> two/A/tcp_P1.json.gz
run "$PS" ingest --db two.db two
expect_code 0 "two gzip members: one file, stored"
expect_sql two.db "SELECT count(*) FROM runs" 1 "its run"
test_done
