# t0071: a new input format is code, its test and its fixture, and no
# list kept by hand.  pathstat --list kinds prints the kinds ingest knows
# (enum ingest_kind, named as files.kind stores them); every one of them
# but meta (the sidecar, read with the run it describes) has a file
# under tests/fixtures or samples that ingest stores as that kind, and
# ingest stores no kind the list lacks.  A kind planted in the list
# alone, with no fixture, fails the same check.

run "$PS" --list kinds
expect_code 0 "pathstat --list kinds: exit 0"
printf '%s\n' "$OUT" > kinds
ok '[ "$(grep -c . kinds)" -ge 7 ] && [ "$(sort -u kinds | wc -l)" = "$(wc -l < kinds)" ]' \
    "the kinds, each once ($(tr '\n' ' ' < kinds))"
ok '! grep -qvx "[a-z0-9][a-z0-9-]*" kinds' "each a plain name, as files.kind holds it"
ok 'grep -qx meta kinds' "meta.json sidecars are a kind"
ok '[ -n "$(find "$FIX" "$SAMPLES" -name meta.json | head -1)" ]' \
    "... read with their runs: fixtures have them"

# every fixture and sample at once: rejected files are stored with their
# kind too (iperf3's usage text), so the exit status is not the point
run "$PS" ingest -q --db k.db "$FIX" "$SAMPLES"
ok '[ "$(sql k.db "SELECT count(*) FROM files")" -gt 100 ]' \
    "fixtures and samples ingested ($(sql k.db "SELECT count(*) FROM files") files)"
sql k.db "SELECT DISTINCT kind FROM files ORDER BY kind" > stored

# KINDS: print each kind of the file KINDS no stored file has, and each
# stored kind KINDS lacks
lacking() {
	while read -r k; do
		[ "$k" = meta ] && continue
		grep -qx -- "$k" stored || echo "no fixture: $k"
	done < "$1"
	while read -r k; do
		[ "$k" = unknown ] && continue
		grep -qx -- "$k" "$1" || echo "not listed: $k"
	done < stored
}
ok '[ -z "$(lacking kinds)" ]' "each kind has a fixture, each stored kind is listed ($(lacking kinds | tr '\n' ';'))"

cp kinds planted
echo pcap-tcpdump >> planted
ok '[ "$(lacking planted)" = "no fixture: pcap-tcpdump" ]' \
    "planted: a kind without a fixture is named"
grep -vx oha-csv kinds > planted
ok '[ "$(lacking planted)" = "not listed: oha-csv" ]' \
    "planted: a stored kind the list lacks is named"
test_done
