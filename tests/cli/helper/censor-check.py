#!/usr/bin/env python3
"""censor-check.py - the JSON rules of "≥ timeout" on
one `pathstat analyze ... --format json` output read from stdin:

  * a statistic flagged <stat>_ge_timeout = 1 has no interval
    (<stat>_lo and <stat>_hi null) and says why (<stat>_ci_reason);
  * with --value-null (every verb but percentiles, whose contract keeps
    the successes' value) it has no number either (<stat> null);
  * wherever an interval is absent (<stat>_lo null), <stat>_ci_reason is
    a non-empty string, and where there is one it is null.

Prints "censored N" (the flagged statistics seen) and one line per
violation; exit 1 on any.  Standard library only.
"""
import json
import sys


def main():
    value_null = "--value-null" in sys.argv[1:]
    rows = json.load(sys.stdin)
    bad, ncens = [], 0
    for i, r in enumerate(rows):
        for k, v in r.items():
            if k.endswith("_ge_timeout") and v == 1:
                p = k[: -len("_ge_timeout")]
                ncens += 1
                # compare's baseline_/value_ge_timeout name a side (text)
                if value_null and r.get(p) is not None and \
                        not isinstance(r[p], str):
                    bad.append("row %d: %s = %r beside %s = 1" % (i, p, r[p], k))
                for b in ("_lo", "_hi"):
                    if r.get(p + b) is not None:
                        bad.append("row %d: %s%s = %r beside %s = 1"
                                   % (i, p, b, r[p + b], k))
                if (p + "_lo") in r and not r.get(p + "_ci_reason"):
                    bad.append("row %d: %s censored, no %s_ci_reason" % (i, p, p))
            if k.endswith("_lo"):
                p = k[: -len("_lo")]
                why = r.get(p + "_ci_reason", "missing")
                if v is None and not (isinstance(why, str) and why):
                    bad.append("row %d: %s null, %s_ci_reason %r" % (i, k, p, why))
                if v is not None and why is not None:
                    bad.append("row %d: %s = %r with a reason %r" % (i, k, v, why))
    print("censored %d" % ncens)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
