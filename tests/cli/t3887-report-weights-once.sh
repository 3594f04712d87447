# t3887: a report weighs points of the same size once.  A trend point's
# sampling error (a pooled percentile's, Maritz and Jarrett's) weighs
# each of the day's sorted samples by an incomplete beta that depends
# on their number and the percentile alone, not on the values, and a
# campaign's days hold the same number of samples again and again: a
# team campaign's no-spec report weighs 420 points of 14 days (3
# metrics x 5 paths x 14 days x 2 statistics), each with 1 or 2 sets of
# weights, from 10 distinct sets (6 % of its instructions over 21
# days).  The report now keeps each set, counted with
# PATHSTAT_DEBUG_MJ=1.  The bundle is the same byte for byte with the
# memo off (PATHSTAT_DEBUG_NO_MJ_MEMO=1), and trend sections that
# differ in their statistic or instance type (another number of samples
# a day) each get their own series and verdicts.

team_campaign 14 5 2

line='# point weight sets computed, # reused'

memo_on_off MJ NO_MJ_MEMO "$line" r
ok '[ "$ON" = "10 830" ]' \
    "10 weight sets computed, 830 reused (${ON:-none counted})"
ok '[ "$OFF" = "840 0" ]' \
    "without it, all 840 computed (${OFF:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_MJ"

cat > s.json <<'JSON'
{ "title": "Trends", "sections": [
  { "type": "trend", "id": "p50", "metric": "connect_ms", "by": "day",
    "stats": "p50" },
  { "type": "trend", "id": "p99", "metric": "connect_ms", "by": "day",
    "stats": "p99" },
  { "type": "trend", "id": "one", "metric": "connect_ms", "by": "day",
    "stats": "p99", "where": {"instance_type": "c6i.large"} } ] }
JSON
memo_on_off MJ NO_MJ_MEMO "$line" k --spec s.json
ok '[ -n "$ON" ] && [ "${ON#* }" -gt "${ON% *}" ]' \
    "most weight sets reused (${ON:-none counted})"
ok '! cmp -s k/tables/01-p50.csv k/tables/02-p99.csv' \
    "the p50 trend is not the p99's"
ok '! cmp -s k/tables/02-p99.csv k/tables/03-one.csv' \
    "one instance type's p99 trend is not all of them's"

test_done
