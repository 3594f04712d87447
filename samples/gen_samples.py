#!/usr/bin/python3
"""gen_samples.py - write seeded, synthetic pathstat results trees.

The files imitate the real tools byte for byte in layout:

  * pathprobe CSV (docs/design.md "pathprobe output"),
  * iperf3 3.17.1 -J (cJSON 1.7.15 TAB pretty print, %1.15g/%1.17g numbers,
    the key sets of tests/fixtures/reference/iperf3/3.17.1/tcp_P1.json,
    tcp_P4.json and udp_b0.json),
  * oha v1.15.0 --output-format json (serde_json pretty print, ryu/zmij
    floats, BTreeMap order, oha's percentile/histogram/rps rules) with the
    per-request rows as oha --db-url SQLite or --output-format csv.

Two modes:

  gen_samples.py [--seed N] [--out DIR] [--scale X]
      the demo tree shaped like the two reference articles (default
      samples/tree) and samples/expected.json beside it.
  gen_samples.py --bench --out DIR [--size-gb G] [--jobs N]
      a large tree for benchmarking ingest (not committed) and
      DIR/manifest.json with its totals.

Only the Python 3 standard library is used, so Debian's /usr/bin/python3
runs it.  The output depends only on --seed, --scale (--size-gb) and the
SQLite library version: re-running gives byte-identical files.
"""

import argparse
import hashlib
import heapq
import json
import math
import os
import random
import shutil
import sqlite3
import struct
import sys
import time
from statistics import NormalDist

DEFAULT_SEED = 20260828
HERE = os.path.dirname(os.path.abspath(__file__))
ND = NormalDist()

# ---------------------------------------------------------------------------
# Randomness: every run gets its own generator, derived from the seed and the
# run's identity, so the output does not depend on generation order (and the
# bench can generate runs in parallel).


def rng_for(seed, *key):
    h = hashlib.sha256(repr((seed,) + tuple(key)).encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def centered(rng, k, sigma):
    """k normal deviates with mean exactly 0 (trial-to-trial spread that
    leaves the 3-trial average where the article put it)."""
    e = [ND.inv_cdf(min(max(rng.random(), 1e-9), 1 - 1e-9)) * sigma
         for _ in range(k)]
    m = sum(e) / k
    return [x - m for x in e]


# ---------------------------------------------------------------------------
# Number formatting.


def _shortest(x):
    """Shortest round-trip digits of x > 0 (what ryu, Rust's Display and
    Python's repr all produce): (digits, kk) with x = 0.DIGITS * 10**kk."""
    r = repr(x)
    if "e" in r:
        mant, exp = r.split("e")
        exp = int(exp)
    else:
        mant, exp = r, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    allds = ip + fp
    stripped = allds.lstrip("0")
    point = len(ip) + exp - (len(allds) - len(stripped))
    digits = stripped.rstrip("0") or "0"
    return digits, point


def serde_f64(x):
    """serde_json (zmij) layout of an f64: null for NaN/inf, plain decimal
    with a '.' for 1e-5 <= |x| < 1e16, exponent form otherwise."""
    if x is None or x != x or x in (math.inf, -math.inf):
        return "null"
    r = repr(x)
    if "e" not in r:
        return r                # 1e-4 <= |x| < 1e16: repr is the layout
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    d, kk = _shortest(abs(x))
    n = len(d)
    k = kk - n
    if 0 <= k and kk <= 16:
        s = d + "0" * k + ".0"
    elif 0 < kk <= 16:
        s = d[:kk] + "." + d[kk:]
    elif -5 < kk <= 0:
        s = "0." + "0" * (-kk) + d
    else:
        e = kk - 1
        s = d[0] + ("." + d[1:] if n > 1 else "") + "e" + \
            ("+" if e > 0 else "") + str(e)
    return sign + s


def rust_display(x):
    """Rust's `{}` for an f64: shortest digits, never an exponent, no '.0'
    on whole numbers."""
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "inf" if x > 0 else "-inf"
    r = repr(x)
    if "e" not in r and "n" not in r:
        return r[:-2] if r.endswith(".0") else r      # fast path
    if "e-" in r:               # small values: 5.123e-06 -> 0.000005123
        m, e = r.split("e-")
        sign = "-" if m[0] == "-" else ""
        return sign + "0." + "0" * (int(e) - 1) + \
            m.lstrip("-").replace(".", "")
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    d, kk = _shortest(abs(x))
    if kk <= 0:
        s = "0." + "0" * (-kk) + d
    elif kk >= len(d):
        s = d + "0" * (kk - len(d))
    else:
        s = d[:kk] + "." + d[kk:]
    return sign + s


def cjson_num(x):
    """cJSON 1.7.15 (as patched in iperf 3.14+) print_number."""
    if isinstance(x, bool):
        raise TypeError("bool is not a number")
    if isinstance(x, int):
        return str(x)
    if x != x or x in (math.inf, -math.inf):
        return "null"
    if abs(x) < 9.2e18 and x == int(x):
        return str(int(x))
    s = "%1.15g" % x
    t = float(s)
    if not abs(t - x) <= max(abs(t), abs(x)) * 2.220446049250313e-16:
        s = "%1.17g" % x
    return s


def _json_str(s):
    return json.dumps(s, ensure_ascii=False)


def cjson_dumps(v):
    """cJSON_Print (formatted) followed by the newline iperf3 adds."""
    out = []
    _cj(v, 0, out)
    out.append("\n")
    return "".join(out)


def _cj(v, depth, out):
    if isinstance(v, dict):
        out.append("{\n")
        n = len(v)
        for i, (k, x) in enumerate(v.items()):
            out.append("\t" * (depth + 1))
            out.append(_json_str(k))
            out.append(":\t")
            _cj(x, depth + 1, out)
            out.append(",\n" if i < n - 1 else "\n")
        out.append("\t" * depth + "}")
    elif isinstance(v, list):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(", ")
            _cj(x, depth + 1, out)
        out.append("]")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif v is None:
        out.append("null")
    elif isinstance(v, str):
        out.append(_json_str(v))
    else:
        out.append(cjson_num(v))


def serde_pretty(v):
    """serde_json::to_writer_pretty: two-space indent, no trailing newline."""
    out = []
    _sp(v, 0, out)
    return "".join(out)


def _sp(v, ind, out):
    if isinstance(v, dict):
        if not v:
            out.append("{}")
            return
        out.append("{\n")
        n = len(v)
        for i, (k, x) in enumerate(v.items()):
            out.append("  " * (ind + 1))
            out.append(_json_str(k))
            out.append(": ")
            _sp(x, ind + 1, out)
            out.append(",\n" if i < n - 1 else "\n")
        out.append("  " * ind + "}")
    elif isinstance(v, list):
        if not v:
            out.append("[]")
            return
        out.append("[\n")
        for i, x in enumerate(v):
            out.append("  " * (ind + 1))
            _sp(x, ind + 1, out)
            out.append(",\n" if i < len(v) - 1 else "\n")
        out.append("  " * ind + "]")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif v is None:
        out.append("null")
    elif isinstance(v, str):
        out.append(_json_str(v))
    elif isinstance(v, int):
        out.append(str(v))
    else:
        out.append(serde_f64(v))


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def secs(ns):
    """Rust Duration::as_secs_f64 of an integer nanosecond count."""
    if 0 <= ns < 1000000000:
        return ns / 1e9         # 0.0 + x == x: same value, faster
    s, n = divmod(ns, 1000000000)
    return s + n / 1e9


def us_secs(us):
    """iperf_time_in_secs of an integer microsecond difference."""
    s, u = divmod(us, 1000000)
    return s + u / 1000000.0


DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
          "Oct", "Nov", "Dec")


def rfc1123(t):
    g = time.gmtime(t)
    return "%s, %02d %s %04d %02d:%02d:%02d GMT" % (
        DAYS[g.tm_wday], g.tm_mday, MONTHS[g.tm_mon - 1], g.tm_year,
        g.tm_hour, g.tm_min, g.tm_sec)


def iso_utc(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def epoch(day, hh, mm, ss=0):
    y, m, d = (int(x) for x in day.split("-"))
    return int(__import__("calendar").timegm((y, m, d, hh, mm, ss, 0, 0, 0)))


# ---------------------------------------------------------------------------
# Quantile functions.  Samples are drawn by stratified sampling (one uniform
# per 1/n stratum, shuffled), so a run's percentiles land close to the
# article's numbers while the values still look random in time order.


def strat_uniforms(rng, m):
    perm = list(range(m))
    rng.shuffle(perm)
    r = rng.random
    return [(p + r()) / m for p in perm]


class LogZQuantile:
    """Piecewise linear in (probit(p), log x) through anchor quantiles."""

    def __init__(self, probs, values):
        self.z = [ND.inv_cdf(p) for p in probs]
        self.l = [math.log(v) for v in values]

    def __call__(self, u):
        u = min(max(u, 1e-12), 1 - 1e-12)
        z = ND.inv_cdf(u)
        zs, ls = self.z, self.l
        if z <= zs[0]:
            i = 0
        elif z >= zs[-1]:
            i = len(zs) - 2
        else:
            lo, hi = 0, len(zs) - 1
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if zs[mid] <= z:
                    lo = mid
                else:
                    hi = mid
            i = lo
        t = (z - zs[i]) / (zs[i + 1] - zs[i])
        return math.exp(ls[i] + t * (ls[i + 1] - ls[i]))


class LinQuantile:
    """Piecewise linear in (p, x) through anchors from p=0 to p=1."""

    def __init__(self, probs, values):
        self.p = probs
        self.v = values

    def __call__(self, u):
        ps, vs = self.p, self.v
        for i in range(1, len(ps)):
            if u <= ps[i]:
                t = (u - ps[i - 1]) / (ps[i] - ps[i - 1])
                return vs[i - 1] + t * (vs[i] - vs[i - 1])
        return vs[-1]


class TableQuantile:
    """A fast table of another quantile function (bench mode)."""

    def __init__(self, q, k=8192):
        self.k = k
        self.t = [q((i + 0.5) / k) for i in range(k)]
        self.t.append(q(1 - 0.25 / k))
        self.t.insert(0, q(0.25 / k))

    def __call__(self, u):
        x = u * self.k + 0.5
        i = int(x)
        f = x - i
        t = self.t
        return t[i] + f * (t[i + 1] - t[i])


HTTP_PROBS = (0.0005, 0.01, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 0.999,
              0.9999)
HTTP_LOW = (0.83, 0.55, 0.30, 0.15)
HTTP_UP = (0.15, 0.30, 0.41, 1.0, 2.2, 4.0)


def http_quantile(p50, r99):
    """Latency quantile function with median p50 and p99 = r99 * p50: a
    narrow body and a right tail that widens past p95."""
    s = r99 - 1.0
    vals = [max(0.42, 1 - s * c) for c in HTTP_LOW] + [1.0] + \
        [1 + s * c for c in HTTP_UP]
    return LogZQuantile(HTTP_PROBS, [p50 * v for v in vals])


# ---------------------------------------------------------------------------
# Statistics used for expected.json (the C code is checked against these).


def type7(vals, p):
    s = sorted(vals)
    if not s:
        return None
    h = (len(s) - 1) * p / 100.0
    lo = int(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def oha_pick(sorted_vals, p):
    i = int(p / 100.0 * len(sorted_vals))
    return sorted_vals[i] if i < len(sorted_vals) else math.nan


def r6(x):
    return None if x is None or x != x else float("%.6g" % x)


# ---------------------------------------------------------------------------
# pathprobe CSV.


def write_pathprobe(path, target, addr, start, values, count=300,
                    interval=0.2, timeout=0.4, rtts=None):
    """values: list of connect_ms floats or result strings ('timeout').
    rtts: None for format 1; else format 2, one kernel RTT in whole us
    (or None: empty, as for a retransmitted SYN) per value."""
    head = ("target=%s addr=%s count=%d interval_s=%s timeout_s=%s "
            "start=%s" % (target, addr, count, rust_display(interval),
                          rust_display(timeout), iso_utc(start)))
    if rtts is None:
        lines = ["# pathprobe 1 " + head, "seq,unix_ns,connect_ms,result"]
    else:
        lines = ["# pathprobe 2 " + head + " rst=0 resolve_each=0 spin=1 "
                 "version=0.1.0", "seq,unix_ns,connect_ms,rtt_us,result"]
    base = start * 1000000000
    step = int(round(interval * 1e9))
    for i, v in enumerate(values):
        ts = base + i * step
        rtt = ""
        if rtts is not None:
            rtt = "," if rtts[i] is None or isinstance(v, str) else \
                ",%d" % rtts[i]
        if isinstance(v, str):
            lines.append("%d,%d,%s,%s" % (i, ts, rtt, v))
        else:
            lines.append("%d,%d,%.3f%s,ok" % (i, ts, v, rtt))
    data = "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(data)
    return len(data)


def probe_values(rng, q, n, vmax, timeouts=()):
    us = strat_uniforms(rng, n)
    vals = [q(u) for u in us]
    top = max(range(n), key=lambda i: vals[i])
    vals[top] = vmax
    vals = [round(v, 3) for v in vals]
    for i in timeouts:
        vals[i] = "timeout"
    return vals


# ---------------------------------------------------------------------------
# iperf3 3.17.1 -J client output.

COOKIE_CHARS = "abcdefghijklmnopqrstuvwxyz234567"


def iperf3_doc(rng, p):
    """Build one iperf3 -J document.  p: dict with proto ('TCP'/'UDP'),
    streams, start (epoch s), local/remote hosts, mss, pmtu, blksize,
    rates (list of per-interval Gbit/s, len = duration), rtt_us (list),
    retrans (list), cwnd (list), udp loss/jitter; optionally
    target_bitrate (-b, bit/s) and reverse (-R, 0/1)."""
    proto = p["proto"]
    nst = p["streams"]
    dur = len(p["rates"])
    blk = p["blksize"]
    socks = [5 + 2 * i for i in range(nst)]
    lport = rng.randint(33000, 60000)
    connected = []
    for i in range(nst):
        lport += rng.randint(1, 3)
        connected.append({"socket": socks[i], "local_host": p["local"],
                          "local_port": lport, "remote_host": p["remote"],
                          "remote_port": 5201})
    start = {"connected": connected, "version": "iperf 3.17.1",
             "system_info": p["system_info"],
             "timestamp": {"time": rfc1123(p["start"]),
                           "timesecs": p["start"]},
             "connecting_to": {"host": p["host"], "port": 5201},
             "cookie": "".join(rng.choice(COOKIE_CHARS) for _ in range(36))}
    if proto == "TCP":
        start["tcp_mss_default"] = p["mss"]
    target = p.get("target_bitrate", 0)
    start.update({"target_bitrate": target, "fq_rate": 0,
                  "sock_bufsize": 0})
    if proto == "TCP":
        start.update({"sndbuf_actual": 16384, "rcvbuf_actual": 131072})
    else:
        start.update({"sndbuf_actual": 212992, "rcvbuf_actual": 212992})
    start["test_start"] = {"protocol": proto, "num_streams": nst,
                           "blksize": blk, "omit": 0, "duration": dur,
                           "bytes": 0, "blocks": 0,
                           "reverse": p.get("reverse", 0), "tos": 0,
                           "target_bitrate": target, "bidir": 0,
                           "fqrate": 0,
                           "interval": 1}

    # Interval boundaries in integer microseconds, per stream.
    ends0 = []
    t = 0
    for j in range(dur):
        t = (j + 1) * 1000000 + 35 + 2 * j + rng.randint(0, 40)
        ends0.append(t)
    bounds = []
    for k in range(nst):
        off = [0] * dur
        if k:
            off = [rng.randint(250, 480) if j == 0 else rng.randint(3, 45)
                   for j in range(dur)]
        b = []
        prev = 0
        for j in range(dur):
            e = ends0[j] + off[j]
            b.append((prev, e))
            prev = e
        bounds.append(b)

    intervals = []
    tot_bytes = [0] * nst
    tot_retr = [0] * nst
    max_cwnd = [0] * nst
    max_wnd = [0] * nst
    rtts = [[] for _ in range(nst)]
    tot_packets = 0
    weights = [1.0] * nst
    for j in range(dur):
        rate = p["rates"][j] * 1e9
        if nst > 1:
            weights = [max(0.5, w + rng.gauss(0, 0.03) - 0.05 * (w - 1))
                       for w in weights]
        ws = sum(weights)
        streams = []
        sum_bytes = 0
        sum_retr = 0
        sum_pk = 0
        for k in range(nst):
            s_us, e_us = bounds[k][j]
            st, et = us_secs(s_us), us_secs(e_us)
            sec = f32(us_secs(e_us - s_us))
            share = rate * weights[k] / ws
            if proto == "TCP":
                nbytes = int(round(share * sec / 8 / blk)) * blk
            else:
                pk = int(round(share * sec / 8 / blk))
                nbytes = pk * blk
            bps = nbytes * 8 / sec
            o = {"socket": socks[k], "start": st, "end": et,
                 "seconds": sec, "bytes": nbytes, "bits_per_second": bps}
            if proto == "TCP":
                retr = p["retrans"][j]
                rk = retr // nst + (1 if k < retr % nst else 0)
                cw = int(p["cwnd"][j] / nst * rng.uniform(0.85, 1.15))
                cw -= cw % p["mss"] if cw > p["mss"] else 0
                rtt = max(40, int(p["rtt_us"][j] * rng.uniform(0.97, 1.04)))
                wnd = p["snd_wnd"]
                o.update({"retransmits": rk, "snd_cwnd": cw, "snd_wnd": wnd,
                          "rtt": rtt,
                          "rttvar": max(5, int(rtt * rng.uniform(0.02, 0.09))),
                          "pmtu": p["pmtu"]})
                tot_retr[k] += rk
                sum_retr += rk
                max_cwnd[k] = max(max_cwnd[k], cw)
                max_wnd[k] = max(max_wnd[k], wnd)
                rtts[k].append(rtt)
            else:
                o["packets"] = pk
                sum_pk += pk
            o["omitted"] = False
            o["sender"] = True
            streams.append(o)
            tot_bytes[k] += nbytes
            sum_bytes += nbytes
        first = streams[0]
        sm = {"start": first["start"], "end": first["end"],
              "seconds": first["seconds"], "bytes": sum_bytes,
              "bits_per_second": sum_bytes * 8 / first["seconds"]}
        if proto == "TCP":
            sm["retransmits"] = sum_retr
        else:
            sm["packets"] = sum_pk
            tot_packets += sum_pk
        sm["omitted"] = False
        sm["sender"] = True
        intervals.append({"streams": streams, "sum": sm})

    send_end = us_secs(ends0[-1])
    recv_end_us = ends0[-1] + p["recv_lag_us"] + rng.randint(0, 90)
    recv_end = us_secs(recv_end_us)
    end = {}
    cpu_u = rng.uniform(*p["cpu_user"])
    cpu_s = rng.uniform(*p["cpu_sys"])
    rcpu_u = rng.uniform(*p["rcpu_user"])
    rcpu_s = rng.uniform(*p["rcpu_sys"])
    cpu = {"host_total": cpu_u + cpu_s, "host_user": cpu_u,
           "host_system": cpu_s, "remote_total": rcpu_u + rcpu_s,
           "remote_user": rcpu_u, "remote_system": rcpu_s}
    if proto == "TCP":
        estreams = []
        recv_bytes = []
        for k in range(nst):
            inflight = rng.randint(0, max(1, p["cwnd"][-1] // nst // blk))
            rb = tot_bytes[k] - inflight * blk
            recv_bytes.append(rb)
            rk = rtts[k]
            estreams.append({
                "sender": {"socket": socks[k], "start": 0, "end": send_end,
                           "seconds": send_end, "bytes": tot_bytes[k],
                           "bits_per_second": tot_bytes[k] * 8 / send_end,
                           "retransmits": tot_retr[k],
                           "max_snd_cwnd": max_cwnd[k],
                           "max_snd_wnd": max_wnd[k],
                           "max_rtt": max(rk), "min_rtt": min(rk),
                           "mean_rtt": sum(rk) // len(rk), "sender": True},
                "receiver": {"socket": socks[k], "start": 0,
                             "end": recv_end, "seconds": send_end,
                             "bytes": rb, "bits_per_second": rb * 8 / recv_end,
                             "sender": True}})
        end["streams"] = estreams
        sb = sum(tot_bytes)
        rb = sum(recv_bytes)
        end["sum_sent"] = {"start": 0, "end": send_end, "seconds": send_end,
                           "bytes": sb, "bits_per_second": sb * 8 / send_end,
                           "retransmits": sum(tot_retr), "sender": True}
        end["sum_received"] = {"start": 0, "end": recv_end,
                               "seconds": recv_end, "bytes": rb,
                               "bits_per_second": rb * 8 / recv_end,
                               "sender": True}
        end["cpu_utilization_percent"] = cpu
        end["sender_tcp_congestion"] = "cubic"
        end["receiver_tcp_congestion"] = "cubic"
    else:
        sb = tot_bytes[0]
        lost = int(round(tot_packets * p["loss"] * rng.uniform(0.7, 1.3)))
        jit = p["jitter_ms"] * rng.uniform(0.8, 1.25)
        lp = lost * 100 / tot_packets
        rb = (tot_packets - lost) * blk
        end["streams"] = [{"udp": {
            "socket": socks[0], "start": 0, "end": send_end,
            "seconds": send_end, "bytes": sb,
            "bits_per_second": sb * 8 / send_end, "jitter_ms": jit,
            "lost_packets": lost, "packets": tot_packets,
            "lost_percent": lp, "out_of_order": 0, "sender": True}}]
        end["sum"] = {"start": 0, "end": recv_end, "seconds": recv_end,
                      "bytes": sb, "bits_per_second": sb * 8 / send_end,
                      "jitter_ms": jit, "lost_packets": lost,
                      "packets": tot_packets, "lost_percent": lp,
                      "sender": True}
        end["sum_sent"] = {"start": 0, "end": send_end, "seconds": send_end,
                           "bytes": sb, "bits_per_second": sb * 8 / send_end,
                           "jitter_ms": 0, "lost_packets": 0,
                           "packets": tot_packets, "lost_percent": 0,
                           "sender": True}
        end["sum_received"] = {"start": 0, "end": recv_end,
                               "seconds": recv_end, "bytes": rb,
                               "bits_per_second": rb * 8 / recv_end,
                               "jitter_ms": jit, "lost_packets": lost,
                               "packets": tot_packets, "lost_percent": lp,
                               "sender": False}
        end["cpu_utilization_percent"] = cpu
    return {"start": start, "intervals": intervals, "end": end}


def iperf3_summary(doc):
    """What expected.json records about an iperf3 file."""
    iv = doc["intervals"]
    e = doc["end"]
    ts = doc["start"]["test_start"]
    g = [x["sum"]["bits_per_second"] / 1e9 for x in iv]
    out = {"intervals": len(iv), "omitted": 0,
           "interval_gbps_p50_type7": r6(type7(g, 50)),
           "interval_gbps_min": r6(min(g)), "interval_gbps_max": r6(max(g))}
    if ts["protocol"] == "TCP":
        out["retransmits"] = e["sum_sent"]["retransmits"]
        out["sum_sent_bps"] = e["sum_sent"]["bits_per_second"]
        out["sum_received_bps"] = e["sum_received"]["bits_per_second"]
    else:
        out["sum_bps"] = e["sum"]["bits_per_second"]
        out["jitter_ms"] = e["sum"]["jitter_ms"]
        out["lost_percent"] = e["sum"]["lost_percent"]
    return out


def ar_series(rng, n, mean, sigma, rho=0.6, first=1.0, cap=None):
    x = 0.0
    out = []
    for j in range(n):
        x = rho * x + math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
        v = mean * (1 + sigma * x)
        if cap is not None:
            v = min(v, cap * (1 - abs(rng.gauss(0, 0.0004))))
        if j == 0:
            v *= first
        out.append(v)
    return out


# ---------------------------------------------------------------------------
# oha: simulate the requests of one run, then print what oha prints.


def rust_round(x):
    if x != x or x in (math.inf, -math.inf):
        return x
    a = abs(x)
    f = math.floor(a)
    r = f + 1.0 if a - f >= 0.5 else float(f)
    return math.copysign(r, x)


def ms3(x):
    if x != x or x in (math.inf, -math.inf):
        return x
    return rust_round(x * 1000.0 * 1000.0) / 1000.0


PCTS = (10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99)


def _percentiles(sorted_vals):
    n = len(sorted_vals)
    out = {}
    for p in PCTS:
        i = int(p / 100.0 * n)
        out["p" + rust_display(p)] = sorted_vals[i] if i < n else math.nan
    return dict(sorted(out.items()))


def _histogram(sorted_vals, bins=11):
    mn = math.inf
    mx = -math.inf
    for v in sorted_vals:
        mn = min(mn, v)
        mx = max(mx, v)
    step = (mx - mn) / (bins - 1)
    bucket = [0] * bins
    for v in sorted_vals:
        if step == 0 or step != step:
            i = 0
        else:
            q = (v - mn) / step
            i = 0 if q != q else min(int(math.ceil(q)), bins - 1)
        bucket[i] += 1
    d = {}
    for i, c in enumerate(bucket):
        lab = mn + step * float(i)
        d[rust_display(lab)] = c
    return dict(sorted(d.items()))


def _min_max_mean(vals):
    mn, mx, avg, n = math.inf, -math.inf, 0.0, 0
    for v in vals:
        n += 1
        avg += (v - avg) / n
        if v < mn:
            mn = v
        if v > mx:
            mx = v
    return mn, mx, (avg if n else math.nan)


def oha_result(succ, errors, total_ns):
    """oha v1.15.0 print_json.  succ: list of (start_ns, end_ns, status,
    len_bytes, conn, fb_ns) in collection order; conn is None or
    (dns_ns, dialup_ns); fb_ns is first_byte - start or None."""
    total = secs(total_ns)
    nerr = sum(errors.values())
    nres = len(succ) + nerr
    den = len(succ) + sum(v for k, v in errors.items()
                          if k != "aborted due to deadline")
    success_rate = len(succ) / den if den else math.nan
    durs = [secs(r[1] - r[0]) for r in succ]
    mn, mx, mean = _min_max_mean(durs)
    total_data = sum(r[3] for r in succ)
    sdur = sorted(durs)
    lat_p = _percentiles(sdur)
    fbs = [secs(r[5]) for r in succ if r[5] is not None]
    sfb = sorted(fbs)
    fb_mn, fb_mx, fb_mean = _min_max_mean(fbs)

    ends = [secs(r[1]) for r in succ]
    ends.append(0.0)
    ends.sort()
    rps = []
    r = 0
    ne = len(ends)
    while True:
        prev = r
        if r + 1 < ne:
            r += 1
        while r + 1 < ne and ends[prev] + 0.01 > ends[r + 1]:
            r += 1
        if r == prev:
            break
        t = ends[r] - ends[prev]
        rps.append((r - prev) / t if t else math.inf)
    rps.sort()
    rps_p = _percentiles(rps)
    vavg, vsum2, vn = 0.0, 0.0, 0
    for x in rps:
        vn += 1
        dn = (x - vavg) / vn
        vavg += dn
        vsum2 += dn * dn * vn * (vn - 1.0)
    rmean = vavg if vn else math.nan
    rstd = math.sqrt(vsum2 / (vn - 1)) if vn >= 2 else math.nan
    rmin, rmax = (min(rps), max(rps)) if rps else (math.inf, -math.inf)

    dial = [secs(x[4][1]) for x in succ if x[4] is not None]
    dns = [secs(x[4][0]) for x in succ if x[4] is not None]
    d_mn, d_mx, d_mean = _min_max_mean(dial)
    l_mn, l_mx, l_mean = _min_max_mean(dns)
    status = {}
    for x in succ:
        status[x[2]] = status.get(x[2], 0) + 1

    def nn(v):
        return None if v != v or v in (math.inf, -math.inf) else v

    res = {
        "summary": {
            "successRate": nn(success_rate),
            "total": total,
            "slowest": nn(mx),
            "fastest": nn(mn),
            "average": nn(mean),
            "requestsPerSec": nres / total,
            "totalData": total_data,
            "sizePerRequest": (total_data // len(succ)) if succ else None,
            "sizePerSec": total_data / total,
        },
        "metrics": {
            "success_rate": nn(success_rate),
            "requests_per_sec": nres / total,
            "latency_ms": {
                "min": nn(ms3(mn)), "mean": nn(ms3(mean)),
                "p50": nn(ms3(lat_p["p50"])), "p95": nn(ms3(lat_p["p95"])),
                "p99": nn(ms3(lat_p["p99"])), "max": nn(ms3(mx)),
            },
        },
        "responseTimeHistogram": _histogram(sdur),
        "latencyPercentiles": {k: nn(v) for k, v in lat_p.items()},
        "firstByteHistogram": _histogram(sfb),
        "firstBytePercentiles": {k: nn(v) for k, v in
                                 _percentiles(sfb).items()},
        "rps": {
            "mean": nn(rmean), "stddev": nn(rstd), "max": nn(rmax),
            "min": nn(rmin),
            "percentiles": {k: nn(v) for k, v in rps_p.items()},
        },
        "details": {
            "DNSDialup": {"average": nn(d_mean), "fastest": nn(d_mn),
                          "slowest": nn(d_mx)},
            "DNSLookup": {"average": nn(l_mean), "fastest": nn(l_mn),
                          "slowest": nn(l_mx)},
            "firstByte": {"average": nn(fb_mean), "fastest": nn(fb_mn),
                          "slowest": nn(fb_mx)},
        },
        "statusCodeDistribution": {str(k): status[k] for k in
                                   sorted(status)},
        "errorDistribution": dict(sorted(errors.items())),
    }
    return res


def simulate_oha(rng, spec, q=None):
    """Simulate one oha -n N -c C run.  Returns (succ, errors, total_ns);
    succ in collection order (see oha_result)."""
    n = spec["n"]
    c = spec["c"]
    ka = spec["ka"]
    size = spec["size"]
    n_err = spec.get("errors", 0)
    m = n - n_err
    if q is None:
        q = http_quantile(spec["p50_ms"], spec["r99"])
    us = strat_uniforms(rng, m)
    rr = rng.random

    def ri(lo, hi):
        return lo + int(rr() * (hi - lo + 1))
    spike = spec.get("spike", 0.0007)
    core = []
    for u in us:
        v = q(u)
        if rr() < spike:
            v *= 2.0 + 3.0 * rr()
        core.append(int(v * 1e6))
    err_at = set()
    if n_err:
        err_at = set(rng.sample(range(n // 4, n - 1), n_err))
    conn_ns = int(spec["conn_ms"] * 1e6)
    dial_frac = spec.get("dial_frac", 0.5)
    ttfb_ns = int(spec.get("ttfb_ms", 0.1) * 1e6)
    gap_lo, gap_hi = (600, 1700) if c == 1 else (900, 5000)
    heap = []
    for k in range(c):
        t0 = ri(15000, 40000) + k * ri(800, 2500)
        heap.append((t0, k, True))
    heapq.heapify(heap)
    succ = []
    last_end = 0
    ci = 0
    for j in range(n):
        t, k, fresh = heapq.heappop(heap)
        if j in err_at:
            e = t + ri(40000, 160000)
            last_end = max(last_end, e)
            heapq.heappush(heap, (e + ri(gap_lo, gap_hi), k, True))
            continue
        d = core[ci]
        ci += 1
        conn = None
        if not ka:
            dns = ri(2600, 9200)
            dial = dns + int(d * dial_frac * (0.9 + 0.2 * rr()))
            dial = min(dial, d - 20000)
            conn = (dns, max(dial, dns + 5000))
        elif fresh:
            dns = ri(2600, 9200)
            dial = dns + int(conn_ns * (0.85 + 0.45 * rr()))
            conn = (dns, dial)
            d += dial
        if size <= 4096:
            fb = d - ri(700, 4000)
        else:
            base = conn[1] if conn else 0
            fb = base + int(ttfb_ns * (0.9 + 0.6 * rr()))
            fb = min(fb, d - 500000)
        e = t + d
        succ.append((t, e, 200, size, conn, fb))
        last_end = max(last_end, e)
        heapq.heappush(heap, (e + ri(gap_lo, gap_hi), k, False))
    if c > 1:
        succ.sort(key=lambda r: r[1])
    total_ns = last_end + ri(30000, 140000)
    errors = {spec.get("error_msg", "connection closed before message "
                                    "completed"): n_err} if n_err else {}
    return succ, errors, total_ns


def simulate_shared(rng, spec):
    """oha -c C with large bodies through one bottleneck: after its
    time-to-first-byte every response body is a flow that shares the
    instance's bandwidth (weighted fair share, capped per flow), so the
    run's requests/s comes out at bandwidth / body size and each request
    lasts about C / RPS, as in the article's 1 MB c=16 runs."""
    n, c, size = spec["n"], spec["c"], spec["size"]
    bits = size * 8.0
    bw = spec["bw_gbps"] * 1e9
    cap = spec.get("flow_cap_gbps", 9.53) * 1e9
    ttfb = spec["ttfb_ms"] * 1e-3
    conn_s = spec["conn_ms"] * 1e-3
    rr = rng.random
    waiting = []
    issued = 0
    for k in range(c):
        t0 = (rng.randint(15000, 40000) + k * rng.randint(800, 2500)) * 1e-9
        dns = rng.randint(2600, 9200)
        dial = dns + int(conn_s * (0.85 + 0.45 * rr()) * 1e9)
        lat = dial * 1e-9 + ttfb * (0.9 + 0.6 * rr())
        heapq.heappush(waiting, (t0 + lat, k, t0, (dns, dial)))
        issued += 1
    active = {}
    succ = []
    t = 0.0
    while waiting or active:
        wsum = sum(a[1] for a in active.values())
        rates = {k: min(cap, bw * a[1] / wsum) for k, a in active.items()}
        t_done, k_done = math.inf, None
        for k, a in active.items():
            td = t + a[0] / rates[k]
            if td < t_done:
                t_done, k_done = td, k
        t_wait = waiting[0][0] if waiting else math.inf
        t_next = min(t_done, t_wait)
        for k, a in active.items():
            a[0] -= rates[k] * (t_next - t)
        t = t_next
        if t_wait <= t_done:
            _, k, start, conn = heapq.heappop(waiting)
            w = math.exp(rng.gauss(0, 0.22))
            active[k] = [bits, w, start, conn, t + rng.uniform(8e-6, 30e-6)]
            continue
        rem, w, start, conn, fb = active.pop(k_done)
        s_ns = int(round(start * 1e9))
        e_ns = int(round(t * 1e9)) + rng.randint(2000, 9000)
        succ.append((s_ns, e_ns, 200, size, conn, int(round(fb * 1e9)) -
                     s_ns))
        if issued < n:
            ns = t + rng.randint(900, 5000) * 1e-9
            heapq.heappush(waiting, (ns + ttfb * (0.9 + 0.6 * rr()),
                                     k_done, ns, None))
            issued += 1
    succ.sort(key=lambda r: r[1])
    total_ns = max(r[1] for r in succ) + rng.randint(30000, 140000)
    return succ, {}, total_ns


OHA_CREATE = """CREATE TABLE IF NOT EXISTS oha (
            url TEXT NOT NULL,
            start REAL NOT NULL,
            start_latency_correction REAL,
            end REAL NOT NULL,
            duration REAL NOT NULL,
            status INTEGER NOT NULL,
            len_bytes INTEGER NOT NULL,
            run INTEGER NOT NULL
        )"""
OHA_INSERT = ("INSERT INTO oha (url, start, start_latency_correction, end, "
              "duration, status, len_bytes, run) VALUES (?1, ?2, ?3, ?4, "
              "?5, ?6, ?7, ?8)")


def write_oha_sqlite(path, url, run, succ, vacuum=True):
    if os.path.exists(path):
        os.unlink(path)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA page_size=4096")
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    con.execute(OHA_CREATE)
    con.execute("BEGIN")
    con.executemany(OHA_INSERT, [(url, secs(r[0]), None, secs(r[1]),
                                  secs(r[1] - r[0]), r[2], r[3], run)
                                 for r in succ])
    con.execute("COMMIT")
    if vacuum:
        con.execute("VACUUM")
    con.close()
    return os.path.getsize(path)


def write_oha_csv(path, succ):
    lines = ["request-start,DNS,DNS+dialup,Response-delay,request-duration,"
             "bytes,status"]
    rd = rust_display
    for r in sorted(succ, key=lambda r: r[0]):
        conn = r[4] or (0, 0)
        lines.append("%s,%s,%s,%s,%s,%d,%d" % (
            rd(secs(r[0])), rd(secs(conn[0])), rd(secs(conn[1])),
            rd(secs(r[5] or 0)), rd(secs(r[1] - r[0])), r[3], r[2]))
    data = "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(data)
    return len(data)


def write_text(path, data):
    with open(path, "w") as f:
        f.write(data)
    return len(data)


def write_meta(d, obj):
    os.makedirs(d, exist_ok=True)
    return write_text(os.path.join(d, "meta.json"),
                      json.dumps(obj, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------
# The demo tree: the two articles.

NET_STUDY = "tokyo-osaka"
ECS_STUDY = "ecs-conn"
NET_DAY1, NET_DAY2 = "2026-08-28", "2026-08-29"
ECS_DAY1, ECS_DAY2 = "2026-08-30", "2026-08-31"
NET_INSTANCE, NET_INSTANCE2 = "c6i.large", "c7g.xlarge"
ECS_INSTANCE, ECS_INSTANCE2 = "c7g.xlarge", "c6i.large"

SYS_X86 = ("Linux ip-10-0-1-23.ap-northeast-1.compute.internal "
           "6.1.141-165.249.amzn2023.x86_64 #1 SMP PREEMPT_DYNAMIC "
           "Tue Jul 15 19:18:44 UTC 2025 x86_64")

# Article 1, section 6.1: p0, p5, p25, p50, p75, p90, p95, p99, p100 of
# the quantile function (ms); the single slowest probe is set to "max".
CONNECT_PROBS = [0.0, 0.05, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 1.0]
NET_PATHS = {
    "A": dict(desc="Tokyo-1a <-> Tokyo-1a, same AZ", host="10.0.1.87",
              addr="10.0.1.87",
              connect=[0.168, 0.182, 0.196, 0.210, 0.226, 0.245, 0.260,
                       0.311, 0.420], cmax=2.08,
              p1=(4.96, 0.0012), p4=(12.41, 0.0008), udp=(4.98, 0.0010),
              cap1=4.975, cap4=12.43, ramp1=0.995, ramp4=0.99, rtt=185,
              mss=8949, pmtu=9001, lag=210, loss=0.0004, jitter=0.004),
    "B": dict(desc="Tokyo-1a <-> Tokyo-1c, cross-AZ", host="10.0.3.142",
              addr="10.0.3.142",
              connect=[1.552, 1.598, 1.628, 1.650, 1.672, 1.690, 1.700,
                       1.741, 1.860], cmax=4.53,
              p1=(4.96, 0.0012), p4=(12.41, 0.0008), udp=(4.98, 0.0010),
              cap1=4.975, cap4=12.43, ramp1=0.99, ramp4=0.985, rtt=1690,
              mss=8949, pmtu=9001, lag=1700, loss=0.0006, jitter=0.006),
    "C": dict(desc="Tokyo-1a <-> Osaka-3a, VPC Peering", host="10.1.1.36",
              addr="10.1.1.36",
              connect=[8.602, 8.690, 8.790, 8.890, 9.310, 9.820, 9.940,
                       10.021, 10.300], cmax=10.81,
              p1=(2.41, 0.030), p4=(10.58, 0.012), udp=(4.98, 0.0015),
              cap1=None, cap4=None, ramp1=0.55, ramp4=0.78, rtt=9050,
              mss=8448, pmtu=8500, lag=9200, loss=0.0025, jitter=0.021),
    "D": dict(desc="Tokyo-1a <-> Osaka-3a, Transit Gateway peering",
              host="10.1.1.36", addr="10.1.1.36",
              connect=[10.690, 10.790, 10.900, 11.010, 11.620, 12.180,
                       12.330, 12.775, 13.600], cmax=17.95,
              p1=(2.50, 0.030), p4=(9.67, 0.014), udp=(4.98, 0.0015),
              cap1=None, cap4=None, ramp1=0.55, ramp4=0.78, rtt=11200,
              mss=8448, pmtu=8500, lag=11300, loss=0.0030, jitter=0.024),
    "E": dict(desc="Tokyo-1a <-> Osaka-3a, PrivateLink (cross-region)",
              host="vpce-0c4e1d5a9b7f23e61-q8x2k4m1.vpce-svc-"
                   "07a3d9e1c5b2f8a40.ap-northeast-3.vpce.amazonaws.com",
              addr="10.0.1.201",
              connect=[12.880, 13.040, 13.180, 13.320, 13.700, 14.300,
                       14.580, 16.030, 17.100], cmax=19.65,
              p1=(2.36, 0.030), p4=(9.99, 0.014), udp=None,
              cap1=None, cap4=None, ramp1=0.55, ramp4=0.78, rtt=13600,
              mss=8448, pmtu=8500, lag=13700, loss=0.0, jitter=0.0),
}
# The burst-credit cliff (article 1, 5.1): this run holds ~10.5 Gbit/s for
# 16 intervals, then drops to ~0.77 Gbit/s within one interval.
CLIFF = dict(path="C", streams=4, trial=3, high=16, low=0.77)

# Article 2 (ms): p50 and p99/p50 per path and condition.  Keep-alive on
# c=1 p50 and the p99 deltas are the article's (section 6.1/9); the rest
# follows its ratios (D 3.5x at c=16; ka off/on G 4.0, A 3.4, B 3.1,
# D 1.3, H 2.0; G-G' 0.108 on, 0.49 off).
ECS_PATHS = ["A", "B", "D", "F", "G", "G'", "H"]
ECS_DIR = {"G'": "Gp"}
ECS_PARAMS = {
    #        ka-on c1        ka-on c16       ka-off c1       ka-off c16
    "A": [(0.065, 1.2308), (0.068, 1.55), (0.221, 1.35), (0.262, 1.60)],
    "B": [(0.077, 1.1169), (0.080, 1.50), (0.2387, 1.30), (0.281, 1.60)],
    "D": [(0.463, 1.2600), (1.6205, 1.85), (0.602, 1.35), (1.985, 1.90)],
    "F": [(0.257, 1.2200), (0.246, 1.45), (0.668, 1.30), (0.741, 1.50)],
    "G": [(0.509, 1.1906), (0.516, 1.40), (2.021, 1.25), (2.180, 1.45)],
    "G'": [(0.401, 1.1646), (0.407, 1.40), (1.531, 1.25), (1.650, 1.45)],
    "H": [(1.330, 1.4030), (1.290, 1.50), (2.660, 1.30), (2.830, 1.50)],
}
ECS_CONDS = [("ka-on_c1_1k", True, 1), ("ka-on_c16_1k", True, 16),
             ("ka-off_c1_1k", False, 1), ("ka-off_c16_1k", False, 16)]
# connection setup (TCP connect) and the share of a keep-alive-off request
# spent dialing; D dials its local Envoy sidecar.
ECS_CONN = {"A": (0.105, 0.55), "B": (0.118, 0.52), "D": (0.030, 0.06),
            "F": (0.300, 0.48), "G": (0.560, 0.60), "G'": (0.420, 0.58),
            "H": (0.720, 0.40)}
ECS_HOSTS = {"A": "10.0.1.60", "B": "10.2.1.75", "D": "10.2.1.75",
             "F": "10.2.1.75", "G": "10.0.1.188", "G'": "10.2.1.213",
             "H": "169.254.171.32"}
# 1 MB c=16 (article 2, 6.4): requests/s per path at the 12.4 Gbit/s cap.
RPS_1M = {"B": 1478.0, "D": 1474.0, "G": 1476.0, "H": 1471.0, "G'": 1479.0}
ONE_M = ["B", "D", "G", "H", "G'"]
# Per-request output as CSV for these paths, SQLite (--db-url) elsewhere.
CSV_PATHS = ("D", "F", "G'")
# The TIME_WAIT outlier (article 2, 5.4): p50 ~5x its sibling trials.
OUTLIER = dict(path="F", cond="ka-off_c1_1k", trial=2, p50x=5.0, r99x=1.6)
# The run with oha errors.
ERRORS = dict(path="H", cond="ka-on_c16_1k", trial=3, n=3,
              msg="connection closed before message completed")

# L1/L2 (article 2, 6.3): TCP connect, server task in the same or the
# other AZ; L2-L1 p50 = +0.89 ms.
ECS_CONNECT = {
    "L1": dict(host="10.0.1.60", q=[0.121, 0.132, 0.143, 0.152, 0.163,
                                     0.176, 0.186, 0.225, 0.310], cmax=1.31),
    "L2": dict(host="10.0.2.91", q=[0.951, 0.995, 1.024, 1.042, 1.061,
                                     1.079, 1.091, 1.134, 1.260], cmax=3.02),
}

# oha requests per run (x --scale): the article sent 10,000; the demo tree
# must stay small.  "headline" = keep-alive on c=1 1 KB on the main day;
# "compare" = the second day / second instance type runs.
BASE_COUNTS = {"headline": 500, "other": 300, "compare": 200,
               "ka-on_c16_1m": 150}


def canon(cond_text):
    """The {cond} grammar of docs/design.md, for expected.json."""
    kv = {}
    for tok in cond_text.replace(",", "_").split("_"):
        if not tok:
            continue
        if "=" in tok:
            k, v = tok.split("=", 1)
        elif tok in ("ka-on", "ka-off"):
            k, v = "ka", tok[3:]
        elif tok[0] == "c" and tok[1:].isdigit():
            k, v = "c", tok[1:]
        elif tok[0] == "P" and tok[1:].isdigit():
            k, v = "P", tok[1:]
        elif tok in ("tcp", "udp"):
            k, v = "proto", tok
        elif tok[-1] in "km" and tok[:-1].isdigit() or \
                tok.endswith("b") and tok[:-1].isdigit():
            k, v = "size", tok
        else:
            raise ValueError(tok)
        kv[k] = v
    return ",".join("%s=%s" % (k, kv[k]) for k in sorted(kv)), kv


class Tree:
    """Writes files under a root and records what it wrote."""

    def __init__(self, root, seed, scale):
        self.root = root
        self.seed = seed
        self.scale = scale
        self.runs = []
        self.files = 0
        self.bytes = 0
        self.cells = {}

    def rel(self, p):
        return os.path.relpath(p, self.root).replace(os.sep, "/")

    def meta(self, d, obj):
        self.bytes += write_meta(d, obj)
        self.files += 1

    def add(self, nbytes):
        self.bytes += nbytes
        self.files += 1

    def cell(self, metric, tags, path, cond, trial, vals):
        key = (metric, tags.get("study"), tags.get("day"),
               tags.get("instance_type"), path, cond)
        self.cells.setdefault(key, {})[trial] = vals


def net_tags(day, inst=NET_INSTANCE):
    return {"study": NET_STUDY, "region": "ap-northeast-1",
            "instance_type": inst, "az": "apne1-az4", "day": day}


def ecs_tags(day, inst=ECS_INSTANCE):
    return {"study": ECS_STUDY, "region": "ap-northeast-1",
            "instance_type": inst, "az": "apne1-az1", "day": day}


def gen_connect_run(t, d, fname, path, trial, cond, tags, host, addr,
                    anchors, cmax, start, key, timeouts=(), via=None):
    rng = rng_for(t.seed, "connect", *key)
    q = LinQuantile(CONNECT_PROBS, anchors)
    vals = probe_values(rng, q, 300, cmax, timeouts)
    meta = {"path": path, "trial": trial}
    if cond:
        meta["condition"] = cond
    if via:
        meta["via"] = via
    meta["tool"] = "pathprobe"
    if not os.path.exists(os.path.join(d, "meta.json")):
        t.meta(d, meta)
    fp = os.path.join(d, fname)
    t.add(write_pathprobe(fp, host + ":5201" if ":" not in host else host,
                          addr, start, vals))
    ok = [v for v in vals if not isinstance(v, str)]
    cc, kv = canon(cond) if cond else ("", {})
    t.runs.append({"file": [t.rel(fp)], "path": path, "trial": trial,
                   "tool": "pathprobe", "condition": cc,
                   "condition_keys": kv, "tags": tags, "metric": "connect_ms",
                   "start_utc": iso_utc(start), "samples": len(ok),
                   "failures": len(vals) - len(ok), "probes": len(vals)})
    t.cell("connect_ms", tags, path, "via=" + via if via else cc, trial, ok)


def iperf_rates(seed, tags, path, kind, trial, cfg, dur=30):
    rng = rng_for(seed, "rates", tags["study"], tags["day"],
                  tags["instance_type"], path, kind, trial)
    if kind == "P1":
        mean, sig = cfg["p1"]
        return ar_series(rng, dur, mean, sig, first=cfg["ramp1"],
                         cap=cfg["cap1"])
    if kind == "P4":
        mean, sig = cfg["p4"]
        return ar_series(rng, dur, mean, sig, first=cfg["ramp4"],
                         cap=cfg["cap4"])
    mean, sig = cfg["udp"]
    return ar_series(rng, dur, mean, sig, cap=4.99)


def iperf_scale(seed, tags, path, kind, cfg, skip_trial=None):
    """Factor that puts the pooled type-7 median of the clean trials on the
    article's number (the series are random, the table is not)."""
    pooled = []
    for trial in (1, 2, 3):
        if trial != skip_trial:
            pooled += iperf_rates(seed, tags, path, kind, trial, cfg)
    target = {"P1": cfg["p1"], "P4": cfg["p4"], "udp": cfg["udp"]}[kind][0]
    return target / type7(pooled, 50)


def gen_iperf_run(t, d, path, trial, kind, tags, start, cfg, cliff=False,
                  scale=1.0):
    rng = rng_for(t.seed, "iperf3", tags["study"], tags["day"],
                  tags["instance_type"], path, kind, trial)
    proto = "UDP" if kind == "udp" else "TCP"
    nst = 4 if kind == "P4" else 1
    cap = {"P1": cfg["cap1"], "P4": cfg["cap4"], "udp": 4.99}[kind]
    rates = [r * scale for r in iperf_rates(t.seed, tags, path, kind, trial,
                                            cfg)]
    if cap:
        rates = [min(r, cap) for r in rates]
    dur = len(rates)
    rtt0 = cfg["rtt"]
    rtt = [rtt0 * (1.35 if (kind == "P4" and cfg["cap4"]) else 1.0) *
           rng.uniform(0.97, 1.05) for _ in range(dur)]
    bdp = [max(65536, int(r * 1e9 * rt * 1e-6 / 8 * 1.25))
           for r, rt in zip(rates, rtt)]
    base_retr = {"P1": 0.6, "P4": 18.0}.get(kind, 0)
    if cfg["cap4"] is None:
        base_retr *= 2.5
    retr = [int(rng.expovariate(1 / base_retr)) if base_retr else 0
            for _ in range(dur)]
    if cliff:
        h = CLIFF["high"]
        for j in range(h, dur):
            rates[j] = CLIFF["low"] * (1 + rng.gauss(0, 0.004))
        frac = 0.045
        rates[h] = 10.5 * frac + CLIFF["low"] * (1 - frac)
        retr[h] = 3100 + rng.randint(0, 400)
        retr[h + 1] = 420 + rng.randint(0, 80)
        for j in range(h, dur):
            rtt[j] = rtt0 * (1.08 if j == h else rng.uniform(0.99, 1.03))
            bdp[j] = max(65536, int(rates[j] * 1e9 * rtt[j] * 1e-6 / 8))
    udp = proto == "UDP"
    p = {"proto": proto, "streams": nst, "rates": rates, "start": start,
         "local": "10.0.1.23", "remote": cfg["addr"], "host": cfg["host"],
         "system_info": SYS_X86, "mss": cfg["mss"], "pmtu": cfg["pmtu"],
         "blksize": cfg["mss"] if udp else 131072, "rtt_us": rtt,
         "retrans": retr, "cwnd": bdp, "snd_wnd": 6291456 if
         cfg["cap4"] else 12582912, "recv_lag_us": cfg["lag"],
         "loss": cfg["loss"], "jitter_ms": cfg["jitter"],
         "cpu_user": (1.2, 3.5) if not udp else (4.0, 7.0),
         "cpu_sys": {"P1": (18, 26), "P4": (41, 56)}.get(kind, (88, 94)),
         "rcpu_user": (0.4, 1.6), "rcpu_sys": (14, 32)}
    doc = iperf3_doc(rng, p)
    fname = {"P1": "tcp_P1.json", "P4": "tcp_P4.json",
             "udp": "udp_b0.json"}[kind]
    fp = os.path.join(d, fname)
    t.add(write_text(fp, cjson_dumps(doc)))
    cond = "P%d_%s" % (nst, proto.lower())
    cc, kv = canon(cond)
    summ = iperf3_summary(doc)
    t.runs.append({"file": [t.rel(fp)], "path": path, "trial": trial,
                   "tool": "iperf3", "condition": cc, "condition_keys": kv,
                   "tags": tags, "metric": "throughput_bps",
                   "start_utc": iso_utc(start),
                   # a UDP sender's intervals are its own rate: what
                   # arrived is one value, the receiver's end sum
                   "samples": 1 if proto.upper() == "UDP" else
                   len(doc["intervals"]),
                   "failures": 0, "iperf3": summ})
    t.cell("throughput_gbps", tags, path, cc, trial,
           [x["sum"]["bits_per_second"] / 1e9 for x in doc["intervals"]])
    return start + dur


def gen_net(t):
    root = os.path.join(t.root, NET_STUDY)
    t.meta(root, {"study": NET_STUDY, "region": "ap-northeast-1",
                  "instance_type": NET_INSTANCE, "az": "apne1-az4"})
    # Day 1: every path alone after an instance restart (article 1, 5.3).
    dd = os.path.join(root, NET_DAY1)
    t.meta(dd, {"day": NET_DAY1})
    tags = net_tags(NET_DAY1)
    for pi, path in enumerate("ABCDE"):
        cfg = NET_PATHS[path]
        now = epoch(NET_DAY1, 1, 5) + pi * 35 * 60
        for trial in (1, 2, 3):
            d = os.path.join(dd, path, "trial%d" % trial)
            t.meta(d, {"path": path, "trial": trial})
        d1 = os.path.join(dd, path, "trial1")
        gen_connect_run(t, d1, "probe.csv", path, 1, "", tags, cfg["host"],
                        cfg["addr"], cfg["connect"], cfg["cmax"], now,
                        (NET_DAY1, NET_INSTANCE, path, ""))
        now += 60 + 8
        kinds = ["P1", "udp", "P4"] if cfg["udp"] else ["P1", "P4"]
        for kind in kinds:
            has_cliff = path == CLIFF["path"] and kind == "P4"
            scale = iperf_scale(t.seed, tags, path, kind, cfg,
                                CLIFF["trial"] if has_cliff else None)
            for trial in (1, 2, 3):
                d = os.path.join(dd, path, "trial%d" % trial)
                cliff = has_cliff and trial == CLIFF["trial"]
                end = gen_iperf_run(t, d, path, trial, kind, tags, now, cfg,
                                    cliff, scale)
                now = end + 12 + (trial % 2)
    # Article 1, 6.2: the same probe against the NLB's private IP.
    nd = os.path.join(dd, "nlb")
    # The runs are tagged via=direct / via=nlb, as a user of the collector
    # tags them (it refuses --tag target=..., a key it writes itself); the
    # random stream keeps its old key so the values stay the same.
    nlb = [("C", "direct", 8.73 / 8.89, 10.62, "10.1.1.36"),
           ("C", "nlb", 9.94 / 8.89, 12.07, "10.1.2.58"),
           ("D", "direct", 10.88 / 11.01, 16.40, "10.1.1.36"),
           ("D", "nlb", 11.59 / 11.01, 15.12, "10.1.2.58")]
    now = epoch(NET_DAY1, 5, 40)
    for path, via, f, cmax, host in nlb:
        d = os.path.join(nd, "%s-%s" % (path, via))
        anchors = [v * f for v in NET_PATHS[path]["connect"]]
        gen_connect_run(t, d, "probe.csv", path, 1, "", dict(tags, via=via),
                        host, host, anchors, cmax, now,
                        (NET_DAY1, NET_INSTANCE, path, "target=" + via),
                        via=via)
        now += 60 + 95
    # Day 2: connect only, paths A, C, E; two timeouts on E.
    dd = os.path.join(root, NET_DAY2)
    t.meta(dd, {"day": NET_DAY2})
    tags2 = net_tags(NET_DAY2)
    now = epoch(NET_DAY2, 2, 10)
    for path, f, cmax, tmo in (("A", 1.03, 1.47, ()),
                               ("C", 1.006, 10.92, ()),
                               ("E", 1.004, 18.88, (137, 211))):
        cfg = NET_PATHS[path]
        d = os.path.join(dd, path, "trial1")
        gen_connect_run(t, d, "probe.csv", path, 1, "", tags2, cfg["host"],
                        cfg["addr"], [v * f for v in cfg["connect"]], cmax,
                        now, (NET_DAY2, NET_INSTANCE, path, ""), tmo)
        now += 60 + 240
    # A second instance type for A and B (nearer meta.json wins).
    ir = os.path.join(root, NET_INSTANCE2)
    t.meta(ir, {"instance_type": NET_INSTANCE2})
    dd = os.path.join(ir, NET_DAY1)
    t.meta(dd, {"day": NET_DAY1})
    tags3 = net_tags(NET_DAY1, NET_INSTANCE2)
    now = epoch(NET_DAY1, 7, 30)
    for path, f, cmax in (("A", 0.93, 1.62), ("B", 0.985, 3.71)):
        cfg = NET_PATHS[path]
        d = os.path.join(dd, path, "trial1")
        gen_connect_run(t, d, "probe.csv", path, 1, "", tags3, cfg["host"],
                        cfg["addr"], [v * f for v in cfg["connect"]], cmax,
                        now, (NET_DAY1, NET_INSTANCE2, path, ""))
        now += 60 + 180


def ecs_counts(scale):
    return {k: max(20, int(round(v * scale))) for k, v in BASE_COUNTS.items()}


def is_main(tags):
    return tags["day"] == ECS_DAY1 and tags["instance_type"] == ECS_INSTANCE


def ecs_spec(t, path, cond, trial, tags, p50, r99, n, tail=1.0):
    ka = "ka-on" in cond
    c = 16 if "_c16_" in cond else 1
    size = 1048576 if cond.endswith("_1m") else 1024
    conn_ms, frac = ECS_CONN[path]
    crng = rng_for(t.seed, "cell", tags["study"], tags["day"],
                   tags["instance_type"], path, cond)
    m50 = centered(crng, 3, 0.012)
    m99 = centered(crng, 3, 0.05)
    p50t = p50 * (1 + m50[trial - 1])
    r99t = 1 + (r99 - 1) * (1 + m99[trial - 1]) * tail
    spec = {"n": n, "c": c, "ka": ka, "size": size, "p50_ms": p50t,
            "r99": r99t, "conn_ms": conn_ms, "dial_frac": frac,
            "ttfb_ms": ECS_PARAMS[path][0][0] * 1.1}
    if (path, cond, trial) == (OUTLIER["path"], OUTLIER["cond"],
                               OUTLIER["trial"]) and is_main(tags):
        spec["p50_ms"] *= OUTLIER["p50x"]
        spec["r99"] = 1 + (spec["r99"] - 1) * OUTLIER["r99x"]
        spec["dial_frac"] = 0.86
        spec["spike"] = 0.01
        spec["outlier"] = True
    if (path, cond, trial) == (ERRORS["path"], ERRORS["cond"],
                               ERRORS["trial"]) and is_main(tags):
        spec["errors"] = ERRORS["n"]
        spec["error_msg"] = ERRORS["msg"]
        spec["n"] = n + ERRORS["n"]
    return spec


def ecs_sim(t, tags, path, cond, trial, spec):
    rng = rng_for(t.seed, "oha", tags["study"], tags["day"],
                  tags["instance_type"], path, cond, trial)
    if "bw_gbps" in spec:
        return simulate_shared(rng, spec)
    return simulate_oha(rng, spec)


def _oha_p(succ, p):
    return oha_pick(sorted(secs(r[1] - r[0]) for r in succ), p) * 1000.0


def ecs_cell(t, tags, path, cond, p50, r99, n):
    """Simulate the three trials of one cell.  The tail is calibrated so
    that the mean over trials of oha's own p99 (the article's method) lands
    on p50 * r99; keep-alive on c=16 is left alone because there the 16
    connection-opening requests, not the tail, set p99 at small n.  For
    1 MB the median is calibrated on the requests/s of each trial."""
    sims = {}
    if cond.endswith("_1m"):
        crng = rng_for(t.seed, "rps", tags["study"], path)
        dev = centered(crng, 3, 0.0015)
        for trial in (1, 2, 3):
            target = RPS_1M[path] * (1 + dev[trial - 1])
            spec = ecs_spec(t, path, cond, trial, tags, p50, r99, n)
            spec["bw_gbps"] = target * 1048576 * 8 / 1e9
            for _ in range(4):
                sim = ecs_sim(t, tags, path, cond, trial, spec)
                rps = (len(sim[0]) + sum(sim[1].values())) / secs(sim[2])
                spec["bw_gbps"] *= target / rps
            sims[trial] = (spec, ecs_sim(t, tags, path, cond, trial, spec))
        return sims
    tail = 1.0
    calibrate = cond != "ka-on_c16_1k"
    for _ in range(4 if calibrate else 1):
        meas = []
        sims = {}
        for trial in (1, 2, 3):
            spec = ecs_spec(t, path, cond, trial, tags, p50, r99, n, tail)
            sim = ecs_sim(t, tags, path, cond, trial, spec)
            sims[trial] = (spec, sim)
            if not spec.get("outlier"):
                meas.append((_oha_p(sim[0], 50), _oha_p(sim[0], 99)))
        if not calibrate:
            break
        m50 = sum(x[0] for x in meas) / len(meas)
        m99 = sum(x[1] for x in meas) / len(meas)
        tail *= (p50 * r99 - m50) / (m99 - m50)
    return sims


def gen_oha_run(t, d, path, cond, trial, tags, spec, sim, start, fmt):
    succ, errors, total_ns = sim
    res = oha_result(succ, errors, total_ns)
    pdir = ECS_DIR.get(path, path)
    base = "%s_%s" % (pdir, cond)
    t.meta(d, {"path": path, "trial": trial, "condition": cond,
               "tool": "oha"})
    jp = os.path.join(d, base + ".json")
    t.add(write_text(jp, serde_pretty(res)))
    url = "/bytes/%d" % spec["size"]
    if fmt == "sqlite":
        rp = os.path.join(d, base + ".db")
        t.add(write_oha_sqlite(rp, url, int(start), succ))
    else:
        rp = os.path.join(d, base + ".csv")
        t.add(write_oha_csv(rp, succ))
    cc, kv = canon(cond)
    t.runs.append({
        "file": [t.rel(jp), t.rel(rp)], "path": path, "trial": trial,
        "tool": "oha", "condition": cc, "condition_keys": kv, "tags": tags,
        "metric": "http_ms", "start_utc": iso_utc(int(start)),
        "run": int(start), "per_request": fmt, "samples": len(succ),
        "failures": sum(errors.values()), "requests": spec["n"],
        "oha": {"summary": res["summary"], "metrics": res["metrics"],
                "latencyPercentiles": res["latencyPercentiles"],
                "errorDistribution": res["errorDistribution"]}})
    t.cell("http_ms", tags, path, cc, trial,
           [secs(r[1] - r[0]) * 1000.0 for r in succ])
    t.cell("rps", tags, path, cc, trial, res["summary"]["requestsPerSec"])
    return secs(total_ns)


def ecs_block(t, root_dir, tags, plan, start, fmt_of, pause_path=45.0,
              pause_trial=600.0):
    """plan: list of (path, cond, p50, r99, n) in the order a path is run;
    writes trial by trial, path by path (the article's loop)."""
    cells = {}
    for path, cond, p50, r99, n in plan:
        cells[(path, cond)] = ecs_cell(t, tags, path, cond, p50, r99, n)
    now = start
    for trial in (1, 2, 3):
        last = None
        for path, cond, p50, r99, n in plan:
            if last is not None and path != last:
                now += pause_path
            last = path
            spec, sim = cells[(path, cond)][trial]
            d = os.path.join(root_dir, "trial%d" % trial,
                             "%s_%s" % (ECS_DIR.get(path, path), cond))
            now += gen_oha_run(t, d, path, cond, trial, tags, spec, sim, now,
                               fmt_of(path)) + 20.0 + trial * 0.137
        now += pause_trial


def gen_ecs(t):
    root = os.path.join(t.root, ECS_STUDY)
    t.meta(root, {"study": ECS_STUDY, "region": "ap-northeast-1",
                  "instance_type": ECS_INSTANCE, "az": "apne1-az1"})
    counts = ecs_counts(t.scale)
    dd = os.path.join(root, ECS_DAY1)
    t.meta(dd, {"day": ECS_DAY1})
    tags = ecs_tags(ECS_DAY1)
    conds = [c[0] for c in ECS_CONDS]
    plan = []
    for path in ECS_PATHS:
        # the article's order: ka-off c1, ka-on c1, ka-off c16, ka-on c16
        for cond in (conds[2], conds[0], conds[3], conds[1]):
            p50, r99 = ECS_PARAMS[path][conds.index(cond)]
            n = counts["headline"] if cond == "ka-on_c1_1k" \
                else counts["other"]
            plan.append((path, cond, p50, r99, n))
        if path in ONE_M:
            plan.append((path, "ka-on_c16_1m", 10.0, 1.45,
                         counts["ka-on_c16_1m"]))
    ecs_block(t, dd, tags, plan, float(epoch(ECS_DAY1, 1, 0, 7)) + 0.318,
              lambda p: "csv" if p in CSV_PATHS else "sqlite")
    # L1/L2: TCP connect to the server task in the same / the other AZ.
    now_i = epoch(ECS_DAY1, 4, 30)
    for path, cfg in ECS_CONNECT.items():
        for trial in (1, 2, 3):
            d = os.path.join(dd, "connect", "%s-trial%d" % (path, trial))
            f = 1 + centered(rng_for(t.seed, "lcell", path), 3,
                             0.006)[trial - 1]
            gen_connect_run(t, d, "probe.csv", path, trial, "", tags,
                            cfg["host"] + ":8080", cfg["host"],
                            [v * f for v in cfg["q"]],
                            cfg["cmax"] * (0.8 + 0.2 * trial / 3), now_i,
                            (ECS_DAY1, ECS_INSTANCE, path, "", trial))
            now_i += 60 + 30
    # Day 2: G and H keep-alive on c=1 again.
    dd = os.path.join(root, ECS_DAY2)
    t.meta(dd, {"day": ECS_DAY2})
    plan = [("G", "ka-on_c1_1k", 0.515, 1.20, counts["compare"]),
            ("H", "ka-on_c1_1k", 1.342, 1.41, counts["compare"])]
    ecs_block(t, dd, ecs_tags(ECS_DAY2), plan,
              float(epoch(ECS_DAY2, 2, 0, 11)) + 0.702, lambda p: "sqlite")
    # A second instance type: A and B keep-alive on c=1.
    ir = os.path.join(root, ECS_INSTANCE2)
    t.meta(ir, {"instance_type": ECS_INSTANCE2})
    dd = os.path.join(ir, ECS_DAY1)
    t.meta(dd, {"day": ECS_DAY1})
    plan = [("A", "ka-on_c1_1k", 0.071, 1.26, counts["compare"]),
            ("B", "ka-on_c1_1k", 0.084, 1.14, counts["compare"])]
    ecs_block(t, dd, ecs_tags(ECS_DAY1, ECS_INSTANCE2), plan,
              float(epoch(ECS_DAY1, 9, 15, 3)) + 0.054, lambda p: "sqlite")


# ---------------------------------------------------------------------------
# Headline numbers (computed from the generated raw data, like an analysis
# script would) for expected.json and samples/README.md.


def _cell(t, metric, study, day, inst, path, cond):
    return t.cells.get((metric, study, day, inst, path, cond), {})


def pct_block(trials, stats=(50, 95, 99)):
    """pooled type7 and per-trial (type7 and oha) means."""
    pooled = [v for k in sorted(trials) for v in trials[k]]
    out = {"n": len(pooled), "trials": len(trials)}
    for p in stats:
        out["p%d_pooled_type7" % p] = r6(type7(pooled, p))
    for p in stats:
        per = [type7(trials[k], p) for k in sorted(trials)]
        out["p%d_trials_type7_mean" % p] = r6(sum(per) / len(per))
    for p in stats:
        per = [oha_pick(sorted(trials[k]), p) for k in sorted(trials)]
        out["p%d_trials_oha_mean" % p] = r6(sum(per) / len(per))
    out["max"] = r6(max(pooled)) if pooled else None
    return out


def headline(t):
    h = {"estimators": {
        "pooled_type7": "all trials' samples together, linear interpolation "
                        "(numpy default, R type 7)",
        "trials_type7_mean": "each trial's type-7 percentile, then the mean "
                             "over trials",
        "trials_oha_mean": "each trial's oha percentile sorted[int(p/100*n)], "
                           "then the mean over trials (the article 2 method: "
                           "'10,000 requests x 3 trials average')"}}
    # Article 1.
    conn = {}
    for path in "ABCDE":
        tr = _cell(t, "connect_ms", NET_STUDY, NET_DAY1, NET_INSTANCE, path,
                   "")
        b = pct_block(tr)
        conn[path] = {"n": b["n"], "p50": b["p50_pooled_type7"],
                      "p95": b["p95_pooled_type7"],
                      "p99": b["p99_pooled_type7"], "max": b["max"]}
    h["connect_ms_day1_c6i_type7"] = conn
    nlb = {}
    for path in "CD":
        for via in ("direct", "nlb"):
            tr = _cell(t, "connect_ms", NET_STUDY, NET_DAY1, NET_INSTANCE,
                       path, "via=" + via)
            nlb["%s via=%s" % (path, via)] = r6(type7(tr[1], 50))
    nlb["C nlb-direct p50"] = r6(nlb["C via=nlb"] -
                                 nlb["C via=direct"])
    nlb["D nlb-direct p50"] = r6(nlb["D via=nlb"] -
                                 nlb["D via=direct"])
    h["connect_ms_nlb_p50_type7"] = nlb
    cmpd = {}
    for path in "ACE":
        a = _cell(t, "connect_ms", NET_STUDY, NET_DAY1, NET_INSTANCE, path,
                  "")[1]
        b = _cell(t, "connect_ms", NET_STUDY, NET_DAY2, NET_INSTANCE, path,
                  "")[1]
        cmpd[path] = {NET_DAY1: r6(type7(a, 50)), NET_DAY2: r6(type7(b, 50))}
    h["connect_ms_p50_by_day"] = cmpd
    cmpi = {}
    for path in "AB":
        a = _cell(t, "connect_ms", NET_STUDY, NET_DAY1, NET_INSTANCE, path,
                  "")[1]
        b = _cell(t, "connect_ms", NET_STUDY, NET_DAY1, NET_INSTANCE2, path,
                  "")[1]
        cmpi[path] = {NET_INSTANCE: r6(type7(a, 50)),
                      NET_INSTANCE2: r6(type7(b, 50))}
    h["connect_ms_p50_by_instance_type"] = cmpi
    thr = {}
    for path in "ABCDE":
        row = {}
        for cond, name in (("P=1,proto=tcp", "P1"), ("P=4,proto=tcp", "P4"),
                           ("P=1,proto=udp", "UDP")):
            tr = _cell(t, "throughput_gbps", NET_STUDY, NET_DAY1,
                       NET_INSTANCE, path, cond)
            if not tr:
                row[name] = "not measured"
                continue
            pooled = [v for k in sorted(tr) for v in tr[k]]
            row[name] = r6(type7(pooled, 50))
        thr[path] = row
    h["throughput_gbps_p50_pooled_type7"] = thr
    tr = _cell(t, "throughput_gbps", NET_STUDY, NET_DAY1, NET_INSTANCE,
               CLIFF["path"], "P=4,proto=tcp")
    ct = tr[CLIFF["trial"]]
    h["cliff"] = {
        "where": "%s/%s/%s/trial%d/tcp_P4.json" % (NET_STUDY, NET_DAY1,
                                                  CLIFF["path"],
                                                  CLIFF["trial"]),
        "intervals_before_drop": CLIFF["high"],
        "mean_gbps_intervals_0_15": r6(sum(ct[:16]) / 16),
        "gbps_interval_16": r6(ct[16]),
        "mean_gbps_intervals_17_29": r6(sum(ct[17:]) / len(ct[17:])),
        "p50_trial3_type7": r6(type7(ct, 50)),
        "p10_pooled_type7": r6(type7([v for k in tr for v in tr[k]], 10)),
        "p10_without_trial3_type7": r6(type7(
            [v for k in tr if k != CLIFF["trial"] for v in tr[k]], 10)),
        "p50_pooled_without_trial3_type7": r6(type7(
            [v for k in tr if k != CLIFF["trial"] for v in tr[k]], 50)),
    }
    # Article 2.
    http = {}
    for path in ECS_PATHS:
        for cond, _, _ in ECS_CONDS:
            cc = canon(cond)[0]
            tr = _cell(t, "http_ms", ECS_STUDY, ECS_DAY1, ECS_INSTANCE, path,
                       cc)
            b = pct_block(tr)
            http["%s %s" % (path, cond)] = b
    h["http_ms_day1_c7g"] = http

    def per(path, cond, p, est="trials_oha_mean"):
        return http["%s %s" % (path, cond)]["p%d_%s" % (p, est)]

    deltas = {}
    for a, b in (("B", "A"), ("H", "B"), ("H", "G"), ("G", "G'"),
                 ("F", "B"), ("D", "B"), ("G", "B")):
        row = {}
        for est in ("trials_oha_mean", "pooled_type7"):
            d50 = per(a, "ka-on_c1_1k", 50, est) - per(b, "ka-on_c1_1k", 50,
                                                       est)
            d99 = per(a, "ka-on_c1_1k", 99, est) - per(b, "ka-on_c1_1k", 99,
                                                       est)
            row[est] = {"p50": r6(d50), "p99": r6(d99),
                        "growth": r6(d99 / d50) if d50 else None}
        deltas["%s-%s" % (a, b)] = row
    h["http_delta_ka-on_c1_1k"] = deltas
    d50 = per("G", "ka-off_c1_1k", 50) - per("G'", "ka-off_c1_1k", 50)
    h["http_delta_G-G'_ka-off_c1_1k_p50_trials_oha_mean"] = r6(d50)
    ratios = {}
    for path in ECS_PATHS:
        ratios[path] = {
            "c16/c1 (ka=on) p50": r6(per(path, "ka-on_c16_1k", 50) /
                                     per(path, "ka-on_c1_1k", 50)),
            "off/on (c=1) p50": r6(per(path, "ka-off_c1_1k", 50) /
                                   per(path, "ka-on_c1_1k", 50)),
        }
    h["http_ratio_p50_trials_oha_mean"] = ratios
    otr = _cell(t, "http_ms", ECS_STUDY, ECS_DAY1, ECS_INSTANCE,
                OUTLIER["path"], canon(OUTLIER["cond"])[0])
    p50s = {k: r6(oha_pick(sorted(v), 50)) for k, v in sorted(otr.items())}
    clean = [oha_pick(sorted(v), 50) for k, v in otr.items()
             if k != OUTLIER["trial"]]
    on = per(OUTLIER["path"], "ka-on_c1_1k", 50)
    h["outlier"] = {
        "where": "%s/%s/trial%d/%s_%s" % (ECS_STUDY, ECS_DAY1,
                                          OUTLIER["trial"], OUTLIER["path"],
                                          OUTLIER["cond"]),
        "p50_oha_by_trial": p50s,
        "p50_ratio_to_siblings": r6(p50s[OUTLIER["trial"]] /
                                    (sum(clean) / len(clean))),
        "off/on p50 with the outlier": r6(
            sum(p50s.values()) / len(p50s) / on),
        "off/on p50 without the outlier": r6(sum(clean) / len(clean) / on),
    }
    rps = {}
    for path in ONE_M:
        tr = _cell(t, "rps", ECS_STUDY, ECS_DAY1, ECS_INSTANCE, path,
                   canon("ka-on_c16_1m")[0])
        m = sum(tr.values()) / len(tr)
        rps[path] = {"requestsPerSec_mean": r6(m),
                     "gbit_s": r6(m * 1048576 * 8 / 1e9)}
    h["rps_ka-on_c16_1m"] = rps
    l1 = _cell(t, "connect_ms", ECS_STUDY, ECS_DAY1, ECS_INSTANCE, "L1", "")
    l2 = _cell(t, "connect_ms", ECS_STUDY, ECS_DAY1, ECS_INSTANCE, "L2", "")
    b1, b2 = pct_block(l1), pct_block(l2)
    h["connect_ms_L2-L1"] = {
        "L1_p50_pooled_type7": b1["p50_pooled_type7"],
        "L2_p50_pooled_type7": b2["p50_pooled_type7"],
        "delta_p50_pooled_type7": r6(b2["p50_pooled_type7"] -
                                     b1["p50_pooled_type7"]),
        "delta_p50_trials_type7_mean": r6(b2["p50_trials_type7_mean"] -
                                          b1["p50_trials_type7_mean"])}
    cmp = {}
    for path, inst in (("A", ECS_INSTANCE2), ("B", ECS_INSTANCE2)):
        a = pct_block(_cell(t, "http_ms", ECS_STUDY, ECS_DAY1, ECS_INSTANCE,
                            path, canon("ka-on_c1_1k")[0]))
        b = pct_block(_cell(t, "http_ms", ECS_STUDY, ECS_DAY1, inst, path,
                            canon("ka-on_c1_1k")[0]))
        cmp[path] = {ECS_INSTANCE: a["p50_trials_oha_mean"],
                     inst: b["p50_trials_oha_mean"]}
    h["http_p50_by_instance_type_ka-on_c1_1k"] = cmp
    cmp = {}
    for path in ("G", "H"):
        a = pct_block(_cell(t, "http_ms", ECS_STUDY, ECS_DAY1, ECS_INSTANCE,
                            path, canon("ka-on_c1_1k")[0]))
        b = pct_block(_cell(t, "http_ms", ECS_STUDY, ECS_DAY2, ECS_INSTANCE,
                            path, canon("ka-on_c1_1k")[0]))
        cmp[path] = {ECS_DAY1: a["p50_trials_oha_mean"],
                     ECS_DAY2: b["p50_trials_oha_mean"]}
    h["http_p50_by_day_ka-on_c1_1k"] = cmp
    h["errors"] = {"where": "%s/%s/trial%d/%s_%s" % (
        ECS_STUDY, ECS_DAY1, ERRORS["trial"], ERRORS["path"], ERRORS["cond"]),
        "errorDistribution": {ERRORS["msg"]: ERRORS["n"]}}
    return h


def clean_out(out, names):
    for n in names:
        p = os.path.join(out, n)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.unlink(p)


def du_apparent(root):
    tot = 0
    nfiles = 0
    for dp, dn, fn in os.walk(root):
        for f in fn:
            tot += os.path.getsize(os.path.join(dp, f))
            nfiles += 1
    return tot, nfiles


def demo(args):
    out = args.out or os.path.join(HERE, "tree")
    expected = args.expected or os.path.join(os.path.dirname(
        os.path.abspath(out)), "expected.json")
    os.makedirs(out, exist_ok=True)
    clean_out(out, (NET_STUDY, ECS_STUDY))
    t = Tree(out, args.seed, args.scale)
    gen_net(t)
    gen_ecs(t)
    h = headline(t)
    runs = sorted(t.runs, key=lambda r: r["file"][0])
    doc = {"generator": "samples/gen_samples.py", "seed": args.seed,
           "scale": args.scale, "sqlite_version": sqlite3.sqlite_version,
           "units": {"connect_ms": "ms", "http_ms": "ms (oha duration "
                     "seconds x 1000)", "throughput": "bit/s in files, "
                     "Gbit/s (1e9) in headline"},
           "notes": "samples = successful samples a statistic is computed "
                    "from; failures = timeouts (pathprobe) or oha "
                    "errorDistribution counts (not in the per-request "
                    "rows); condition = canonical form (keys sorted, "
                    "','-joined); iperf3 conditions come from the file "
                    "(the ingest may add keys such as a direction)",
           "totals": {"runs": len(runs), "files": t.files,
                      "bytes": t.bytes},
           "headline": h, "runs": runs}
    with open(expected, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    size, nfiles = du_apparent(out)
    print("gen_samples: wrote %d runs, %d files, %d bytes under %s" %
          (len(runs), nfiles, size, out), file=sys.stderr)
    print("gen_samples: expected values in %s" % expected, file=sys.stderr)


# ---------------------------------------------------------------------------
# Bench mode: a large tree (>= size_gb GB, >= 20M rows per GB requested).

BENCH_STUDY = "bench-ecs"
BENCH_NET = "bench-net"


def bench_plan(seed, size_gb):
    rng = rng_for(seed, "bench-plan")
    target_rows = int(20_000_000 * size_gb)
    target_bytes = int(1_000_000_000 * size_gb)
    plan = []
    rows = 0
    est = 0
    # iperf3 and pathprobe: ~3% of the bytes.
    n_iperf = max(9, int(180 * size_gb))
    n_probe = max(5, int(150 * size_gb))
    net = []
    paths = "ABCDE"
    for i in range(n_iperf):
        path = paths[i % 5]
        kinds = ["P1", "P4", "udp"] if path != "E" else ["P1", "P4"]
        kind = kinds[(i // 5) % len(kinds)]
        net.append(("iperf3", i, path, kind))
        est += {"P1": 23000, "P4": 52000, "udp": 17000}[kind]
    for i in range(n_probe):
        net.append(("probe", i, paths[i % 5], None))
        est += 11000
    conds = [c[0] for c in ECS_CONDS] + ["ka-on_c16_1m"]
    i = 0
    while rows < target_rows or est < target_bytes:
        path = ECS_PATHS[i % len(ECS_PATHS)]
        cond = conds[(i // len(ECS_PATHS)) % len(conds)]
        if cond.endswith("_1m") and path not in ONE_M:
            cond = "ka-on_c16_1k"
        n = rng.randint(10_000, 100_000)
        fmt = "csv" if rng.random() < 0.15 else "sqlite"
        plan.append((i, path, cond, n, fmt))
        rows += n
        est += n * (54 if fmt == "sqlite" else 58) + 4500
        i += 1
    return net, plan


def bench_oha_job(args):
    seed, out, i, path, cond, n, fmt = args
    day_i = i // 120
    day = "2026-09-%02d" % (1 + day_i % 28)
    trial = 1 + (i // (len(ECS_PATHS) * 5)) % 3
    tags = ecs_tags(day)
    rng = rng_for(seed, "bench-oha", i)
    ci = [c[0] for c in ECS_CONDS].index(cond) if not cond.endswith("_1m") \
        else None
    if ci is None:
        p50, r99 = 10.83, 1.45
    else:
        p50, r99 = ECS_PARAMS[path][ci]
    p50 *= 1 + rng.gauss(0, 0.02)
    conn_ms, frac = ECS_CONN[path]
    spec = {"n": n, "c": 16 if "_c16_" in cond else 1,
            "ka": "ka-on" in cond,
            "size": 1048576 if cond.endswith("_1m") else 1024,
            "p50_ms": p50, "r99": r99, "conn_ms": conn_ms, "dial_frac": frac,
            "ttfb_ms": ECS_PARAMS[path][0][0] * 1.1}
    q = TableQuantile(http_quantile(p50, r99))
    succ, errors, total_ns = simulate_oha(rng, spec, q)
    res = oha_result(succ, errors, total_ns)
    d = os.path.join(out, BENCH_STUDY, day, "run%05d_%s_%s" % (
        i, ECS_DIR.get(path, path), cond))
    os.makedirs(d, exist_ok=True)
    nbytes = write_meta(d, {"path": path, "trial": trial, "condition": cond,
                            "tool": "oha", "day": day})
    base = "%s_%s" % (ECS_DIR.get(path, path), cond)
    nbytes += write_text(os.path.join(d, base + ".json"), serde_pretty(res))
    start = epoch(day, 0, 0) + 97 * (i % 120)
    if fmt == "sqlite":
        rb = write_oha_sqlite(os.path.join(d, base + ".db"),
                              "/bytes/%d" % spec["size"], start, succ,
                              vacuum=False)
    else:
        rb = write_oha_csv(os.path.join(d, base + ".csv"), succ)
    return {"kind": "oha_" + fmt, "files": 3, "bytes": nbytes + rb,
            "rows": len(succ), "perreq_bytes": rb}


def bench_net_job(args):
    seed, out, kind, i, path, ik = args
    cfg = NET_PATHS[path]
    day = "2026-09-%02d" % (1 + (i // 25) % 28)
    trial = 1 + (i // 5) % 3
    tags = {"study": BENCH_NET, "region": "ap-northeast-1",
            "instance_type": NET_INSTANCE, "az": "apne1-az4", "day": day}
    start = epoch(day, 1, 0) + 211 * (i % 25)
    t = Tree(out, seed, 1.0)
    if kind == "iperf3":
        d = os.path.join(out, BENCH_NET, day, "iperf%05d_%s" % (i, path))
        t.meta(d, {"path": path, "trial": trial, "day": day})
        gen_iperf_run(t, d, path, trial, ik, tags, start, cfg)
    else:
        d = os.path.join(out, BENCH_NET, day, "probe%05d_%s" % (i, path))
        t.meta(d, {"path": path, "trial": trial, "tool": "pathprobe",
                   "day": day})
        gen_connect_run(t, d, "probe.csv", path, trial, "", tags,
                        cfg["host"], cfg["addr"], cfg["connect"],
                        cfg["cmax"], start, ("bench", i))
    return {"kind": kind, "files": t.files, "bytes": t.bytes,
            "rows": t.runs[0]["samples"] + t.runs[0]["failures"]}


def bench(args):
    import multiprocessing
    out = args.out
    if not out:
        sys.exit("gen_samples: --bench needs --out DIR")
    t0 = time.time()
    os.makedirs(out, exist_ok=True)
    clean_out(out, (BENCH_STUDY, BENCH_NET, "manifest.json"))
    for sub, meta in ((BENCH_STUDY, {"study": BENCH_STUDY,
                                     "region": "ap-northeast-1",
                                     "instance_type": ECS_INSTANCE,
                                     "az": "apne1-az1"}),
                      (BENCH_NET, {"study": BENCH_NET,
                                   "region": "ap-northeast-1",
                                   "instance_type": NET_INSTANCE,
                                   "az": "apne1-az4"})):
        write_meta(os.path.join(out, sub), meta)
    net, plan = bench_plan(args.seed, args.size_gb)
    jobs = args.jobs or os.cpu_count() or 1
    oha_args = [(args.seed, out) + p for p in plan]
    # biggest first so the pool drains evenly
    oha_args.sort(key=lambda a: -a[5])
    net_args = [(args.seed, out) + n for n in net]
    kinds = {}
    with multiprocessing.Pool(jobs) as pool:
        results = list(pool.imap_unordered(bench_net_job, net_args, 8))
        done = 0
        for r in pool.imap_unordered(bench_oha_job, oha_args, 1):
            results.append(r)
            done += 1
            if done % 50 == 0:
                print("gen_samples: %d/%d oha runs, %.0f s" %
                      (done, len(oha_args), time.time() - t0),
                      file=sys.stderr)
    for r in results:
        k = kinds.setdefault(r["kind"], {"runs": 0, "files": 0, "bytes": 0,
                                         "rows": 0})
        k["runs"] += 1
        k["files"] += r["files"]
        k["bytes"] += r["bytes"]
        k["rows"] += r["rows"]
    size, nfiles = du_apparent(out)
    el = time.time() - t0
    man = {"generator": "samples/gen_samples.py --bench", "seed": args.seed,
           "size_gb": args.size_gb, "jobs": jobs,
           "sqlite_version": sqlite3.sqlite_version,
           "seconds": round(el, 1),
           "total_files": nfiles + 1, "total_bytes": size,
           "oha_request_rows": sum(k["rows"] for n, k in kinds.items()
                                   if n.startswith("oha")),
           "by_kind": dict(sorted(kinds.items())),
           "row_meaning": {"oha_*": "per-request rows (successes)",
                           "iperf3": "interval samples",
                           "probe": "probes"}}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(man, f, indent=1)
        f.write("\n")
    print("%-12s %6s %8s %14s %12s" % ("kind", "runs", "files", "bytes",
                                       "rows"))
    for n, k in sorted(kinds.items()):
        print("%-12s %6d %8d %14d %12d" % (n, k["runs"], k["files"],
                                           k["bytes"], k["rows"]))
    print("%-12s %6s %8d %14d %12d" % ("total", "", nfiles + 1, size,
                                       man["oha_request_rows"]))
    print("generated in %.1f s with %d jobs; manifest: %s" %
          (el, jobs, os.path.join(out, "manifest.json")))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Write a seeded synthetic pathstat results tree.")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED,
                    help="random seed (default %(default)s)")
    ap.add_argument("--out", help="tree to write (default samples/tree; "
                    "required with --bench)")
    ap.add_argument("--expected", help="where to write expected.json "
                    "(default: beside the tree)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply the oha request counts (default 1: "
                    "500 for keep-alive on c=1 1 KB on the main day, 200 "
                    "for the day/instance comparisons, 150 for 1 MB, 300 "
                    "otherwise)")
    ap.add_argument("--bench", action="store_true",
                    help="write the large benchmark tree instead")
    ap.add_argument("--size-gb", type=float, default=1.0,
                    help="bench size in GB (1e9 bytes); also 20M oha rows "
                    "per GB (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=0,
                    help="bench worker processes (default: CPU count)")
    args = ap.parse_args(argv)
    if args.scale <= 0 or args.size_gb <= 0:
        ap.error("--scale and --size-gb must be positive")
    if args.bench:
        bench(args)
    else:
        demo(args)


if __name__ == "__main__":
    main()
