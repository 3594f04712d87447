# t3885: a report draws each normal of its trend tests once.  Each
# trend series is judged on 1,999 simulated series drawn from the same
# two fixed seeds, one normal at a time, so the k-th draw is the same
# for every series; a team campaign's no-spec report tests 30 series
# (3 metrics x 5 paths x 2 statistics) and made every draw again for
# each (Box-Muller, 10 % of the report's instructions over 21 days).
# The report now keeps the draws of each seed and replays them to the
# next series, counted with PATHSTAT_DEBUG_NOISE=1: over 14 days about
# 116 thousand made and 3.3 million replayed, where all 3.4 million
# were made before.  The bundle is the same byte for byte with the
# memo off (PATHSTAT_DEBUG_NO_NOISE_MEMO=1), and two trend sections
# that differ in one field each get their own verdicts.

team_campaign 14 5 2

line='# normal draws made, # replayed'

memo_on_off NOISE NO_NOISE_MEMO "$line" r
made=${ON% *} replayed=${ON#* }
ok '[ -n "$ON" ] && [ "$replayed" -gt $((20 * made)) ]' \
    "most draws replayed (${ON:-none counted})"
ok '[ -n "$ON" ] && [ "$OFF" = "$((made + replayed)) 0" ]' \
    "without it, every one of the same draws made (${OFF:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_NOISE"

# two trend sections that differ in their statistic, two in their
# instance type: each its own series and verdicts, as without the memo
cat > s.json <<'JSON'
{ "title": "Trends", "sections": [
  { "type": "trend", "id": "p50", "metric": "connect_ms", "by": "day",
    "stats": "p50" },
  { "type": "trend", "id": "p99", "metric": "connect_ms", "by": "day",
    "stats": "p99" },
  { "type": "trend", "id": "one", "metric": "throughput_bps", "by": "day",
    "where": {"instance_type": "c6i.large"} },
  { "type": "trend", "id": "two", "metric": "throughput_bps", "by": "day",
    "where": {"instance_type": "m7i.large"} } ] }
JSON
memo_on_off NOISE NO_NOISE_MEMO "$line" k --spec s.json
ok '! cmp -s k/tables/01-p50.csv k/tables/02-p99.csv' \
    "the p50 trend is not the p99's"
ok '! cmp -s k/tables/03-one.csv k/tables/04-two.csv' \
    "one instance type's trend is not the other's"

test_done
