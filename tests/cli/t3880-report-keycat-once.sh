# t3880: a report reads the keys and values of its database once, not
# once per section.  Every section checked the names its options give
# (where, by) against the runs with the whole key catalogue: the no-spec
# report of a team campaign ran 105 catalogue queries (SELECT DISTINCT
# over the runs) whatever the days.  Now the keys and each key's values
# are read once a report: 3 queries here (the keys, the values of path
# and of instance_type), counted with PATHSTAT_DEBUG_KEYCAT=1.  A name
# no run has, in a later section, is still reported with the values
# there are.

team_campaign 2 5 3
PATHSTAT_DEBUG_KEYCAT=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
nq=$(debug_counts '# key catalogue queries')
ok '[ -n "$nq" ] && [ "$nq" -le 3 ]' \
    "at most 3 catalogue queries in the whole report (${nq:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_KEYCAT"

# five sections over instance_type, the last one naming a type no run has
sec='{ "type": "percentiles", "metric": "connect_ms", "where": {"instance_type": "%s"} }'
{
	printf '{ "title": "x", "sections": ['
	for t in c6i.large c7i.large m6i.large r6i.large; do
		printf "$sec, " "$t"
	done
	printf "$sec ] }\n" "z9.large"
} >s.json
PATHSTAT_DEBUG_KEYCAT=1 run "$PS" report --db t.db --spec s.json --out r3 --no-render
expect_code 1 "a type no run has: exit 1"
expect_err_has "s.json: sections[4]: where: no run has instance_type=z9.large; did you mean 'c6i.large'? (values of instance_type: c6i.large, c6i.xlarge, c7i.large, c7i.xlarge, m6i.large, m7i.large, r6i.large, r7i.large)" \
    "the fifth section names the values there are"
nq=$(debug_counts '# key catalogue queries')
ok '[ -n "$nq" ] && [ "$nq" -le 3 ]' \
    "five sections, at most 3 catalogue queries (${nq:-none counted})"

test_done
