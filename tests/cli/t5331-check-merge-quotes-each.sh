# t5331: a merged finding quotes each campaign's own numbers
# (C's P=1 drop "on 2 of 2 days" quoted only day 1's).  On the sample
# tree, every finding merged across at most 4 days or instance types
# holds, word for word, the evidence of each per-campaign finding it
# stands for (`check --per-campaign`), each labelled with its day or
# instance type; one
# whose campaigns all say the same quotes it once.

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
"$PS" check --db s.db --format json > merged.json 2>/dev/null
"$PS" check --db s.db --format json --per-campaign > each.json 2>/dev/null
cat > cmp.py <<'PY'
import json, re
merged = json.load(open("merged.json"))
each = json.load(open("each.json"))
key = lambda f: (f["check"], f["metric"], f["path"], f["condition"])

def scope_sets(scope):
    """'day=D1,D2,study=S' -> {day: {D1, D2}, study: {S}}"""
    out, k = {}, None
    for tok in scope.split(",") if scope else []:
        if "=" in tok:
            k, v = tok.split("=", 1)
        else:
            v = tok
        out.setdefault(k, set()).add(v)
    return out

def within(part, merged):
    want = scope_sets(merged)
    return all(vs <= want.get(k, vs) for k, vs in scope_sets(part).items())
n = labelled = 0
bad = []
for f in merged:
    m = re.match(r"(on|in) (\d+) of (\d+) ", f["evidence"])
    if not m or int(m.group(2)) > 4 or int(m.group(2)) < 2:
        continue
    n += 1
    parts = [g for g in each if key(g) == key(f) and within(g["scope"], f["scope"])]
    texts = {g["evidence"] for g in parts}
    for t in texts:
        if t not in f["evidence"]:
            bad.append("%s %s %s: lacks %r" % (f["check"], f["path"], f["condition"], t[:60]))
    if len(texts) > 1:
        labelled += 1
        for k in ("day", "instance_type"):
            vals = {scope_sets(g["scope"]).get(k, {""}).pop() for g in parts}
            if len(vals) < 2:
                continue
            for v in vals:
                if not re.search(r"(^|: |; )%s=%s[:,]" % (k, re.escape(v)), f["evidence"]):
                    bad.append("%s %s: no label %s=%s" % (f["check"], f["path"], k, v))
    elif f["evidence"].count(next(iter(texts))) != 1:
        bad.append("%s %s: the same text quoted twice" % (f["check"], f["path"]))
print(n, labelled, len(bad))
for b in bad[:5]:
    print(b)
PY
run "$REAL_PY" cmp.py
read -r nm nl nbad <<EOF2
$(printf '%s\n' "$OUT" | head -1)
EOF2
ok '[ "${nm:-0}" -ge 3 ]' "the sample tree has merged findings ($nm)"
ok '[ "${nl:-0}" -ge 1 ]' "some merge campaigns whose numbers differ ($nl)"
ok '[ "${nbad:-1}" = 0 ]' "each merged finding quotes every campaign's own evidence, labelled ($(printf '%s\n' "$OUT" | sed -n 2,3p | tr '\n' ' '))"
test_done
