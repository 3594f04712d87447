#!/usr/bin/env python3
"""big_iperf3.py OUT MB: write an iperf3 -J result of about MB megabytes
(ingest's memory bound): the start and end of a real iperf3 3.12 run
(tests/fixtures/reference/iperf3/3.12/tcp_P1.json) with its intervals
repeated, one second apart, until the file is that large."""
import copy
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, "..", "tests", "fixtures", "reference", "iperf3",
                   "3.12", "tcp_P1.json")
out, mb = sys.argv[1], float(sys.argv[2])
doc = json.load(open(src))
ivs = doc["intervals"]
one = json.dumps(ivs[0])
n = max(1, int(mb * 1e6 / (len(one) + 2)))
with open(out, "w") as f:
    f.write('{"start": %s, "intervals": [' % json.dumps(doc["start"]))
    for i in range(n):
        iv = copy.deepcopy(ivs[i % len(ivs)])
        for part in iv["streams"] + [iv["sum"]]:
            part["start"] = float(i)
            part["end"] = float(i + 1)
        f.write(("," if i else "") + json.dumps(iv))
    f.write('], "end": %s}\n' % json.dumps(doc["end"]))
