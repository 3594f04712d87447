# t2984: the trials (days) a side `pathstat plan --detect` recommends,
# and the power it promises, against an independent oracle: numpy and
# scipy simulating compare's tests (exact Mann-Whitney below 10 a side,
# Brunner-Munzel above, Student's t on days) with Holm over k - 1 rows
# sharing a baseline, 40,000 repetitions a design, recorded in
# tests/fixtures/stats/plan_power.json by gen_plan_power.py beside it.
# The design must reach 80 % by the oracle, one unit fewer must not
# (both within 0.03 of 0.8: the planner simulates 2,000 repetitions),
# and the power printed must be the oracle's within 0.03.

have_prereq NUMPY || skip_all "numpy missing"

cat > check.py <<'PY'
import json, os, subprocess, sys
PS = os.environ["PS"]
bad = []
for c in json.load(open(sys.argv[1])):
    model = "within=%g,trial=%g,loss=%g" % (c["within"], c["trial"], c["loss"])
    args = [PS, "plan", "--metric", "connect_ms", "--stat", "p%g" % c["stat"],
            "--detect", "%g%%" % (100 * c["detect"]), "--groups", str(c["groups"]),
            "--per-trial", str(c["n"]), "--format", "json"]
    if c["per_day"]:
        model += ",day=%g" % c["day"]
        args += ["--unit", "days", "--per-day", str(c["per_day"])]
    x = json.loads(subprocess.run(args + ["--model", model], capture_output=True,
                                  text=True, check=True).stdout)[0]
    u = x["days"] if c["per_day"] else x["trials"]
    pw = {int(k): v for k, v in c["power"].items()}
    if u not in pw:
        bad.append((c["name"], "outside the oracle's range", u))
        continue
    if pw[u] < 0.8 - 0.03:
        bad.append((c["name"], "does not reach 80 %", u, pw[u]))
    if u - 1 in pw and pw[u - 1] >= 0.8 + 0.03:
        bad.append((c["name"], "one fewer would do", u, pw[u - 1]))
    if abs(x["power"] - pw[u]) > 0.03:
        bad.append((c["name"], "power", x["power"], pw[u]))
print(json.dumps(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" check.py "$FIX/stats/plan_power.json"
ok '[ "$RC" = 0 ]' "designs and powers match the oracle ($OUT $ERR)"
test_done
