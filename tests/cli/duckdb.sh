# duckdb.sh - DuckDB for the export tests (t7*), sourced after lib.sh:
# duckdb_prereq installs @duckdb/node-api once (tests/duckdb/setup.sh)
# or skips the whole test with the one-line reason; duckq SQL... prints
# the last statement's rows as a JSON array (doubles exact).
duckdb_prereq() {
	DUCKDB_DIR=$(sh "$TOP/tests/duckdb/setup.sh" 2>"$TMP/.duckdb-why") ||
	    skip_all "DuckDB: $(head -1 "$TMP/.duckdb-why")"
}
duckq() {
	node "$DUCKDB_DIR/query.mjs" "$@"
}
