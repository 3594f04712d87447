#!/usr/bin/env python3
"""wire.py - pair pathprobe's rows with the handshakes seen on the wire.

  wire.py PCAP CSV PORT [TRACE]

PCAP is a capture written by `tcpdump --time-stamp-precision=nano -w`
(Ethernet, which is also what Linux loopback gives, or Linux cooked
capture), CSV is pathprobe's output (format 1 or 2) for probes to
server port PORT.  Probe i is paired with the first SYN to PORT sent at
or after its unix_ns (before probe i + 1 started), and that SYN with the
first SYN/ACK back to its source port; wire = SYN/ACK - SYN, the time the
packets passed the capture point (CLOCK_REALTIME, like unix_ns).

TRACE, when given, is the stderr of a pathprobe built with
-DPROBE_TRACE ("trace seq t0 t_ret t_wait t_wake t1 rtt retrans" in
CLOCK_MONOTONIC ns, after one "clock real mono" line); the wire times
are then also placed on the monotonic clock to split connect_ms.

Prints one line per paired ok probe ("seq wire_us rtt_us connect_us"),
then "# " lines with medians (type 7) and, last, one line
"summary n=N wire_p50=.. rtt_p50=.. connect_p50=.. absdiff_p50=.."
with absdiff = |rtt_us - wire_us| over probes that have rtt_us.
Exits 1 when nothing could be paired.
"""
import struct
import sys


def q7(v, p):
    """Type 7 quantile (numpy's default) of a list; None when empty."""
    if not v:
        return None
    v = sorted(v)
    h = (len(v) - 1) * p
    lo = int(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def packets(path):
    """Yield (t_ns, src_port, dst_port, flags) of TCP segments."""
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic == b"\x4d\x3c\xb2\xa1":
        end, scale = "<", 1
    elif magic == b"\xa1\xb2\x3c\x4d":
        end, scale = ">", 1
    elif magic == b"\xd4\xc3\xb2\xa1":
        end, scale = "<", 1000
    elif magic == b"\xa1\xb2\xc3\xd4":
        end, scale = ">", 1000
    else:
        sys.exit("wire.py: %s: not a pcap file" % path)
    linktype = struct.unpack(end + "I", data[20:24])[0]
    off = 24
    while off + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(end + "IIII", data[off:off + 16])
        pkt = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        t = sec * 1000000000 + frac * scale
        if linktype == 1:           # Ethernet (and Linux loopback)
            etype, ip = struct.unpack("!H", pkt[12:14])[0], pkt[14:]
        elif linktype == 113:       # Linux cooked capture
            etype, ip = struct.unpack("!H", pkt[14:16])[0], pkt[16:]
        elif linktype == 276:       # Linux cooked capture v2
            etype, ip = struct.unpack("!H", pkt[0:2])[0], pkt[20:]
        else:
            sys.exit("wire.py: link type %d not handled" % linktype)
        if etype == 0x0800 and len(ip) >= 20 and ip[9] == 6:
            tcp = ip[(ip[0] & 15) * 4:]
        elif etype == 0x86DD and len(ip) >= 40 and ip[6] == 6:
            tcp = ip[40:]
        else:
            continue
        if len(tcp) < 14:
            continue
        sport, dport = struct.unpack("!HH", tcp[:4])
        yield t, sport, dport, tcp[13]


def main():
    pcap, csv, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    trace = sys.argv[4] if len(sys.argv) > 4 else None
    syns, synacks = [], {}
    for t, sport, dport, flags in packets(pcap):
        syn, ack = flags & 0x02, flags & 0x10
        if syn and not ack and dport == port:
            syns.append((t, sport))
        elif syn and ack and sport == port:
            synacks.setdefault(dport, []).append(t)
    syns.sort()

    rows = []
    cols = None
    for line in open(csv):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if cols is None:
            cols = line.split(",")
            continue
        f = dict(zip(cols, line.split(",")))
        rows.append(f)
    starts = [int(r["unix_ns"]) for r in rows]

    mono = {}
    offset = None
    if trace:
        for line in open(trace):
            w = line.split()
            if w and w[0] == "clock":
                offset = int(w[1]) - int(w[2])     # real - mono
            elif w and w[0] == "trace":
                mono[int(w[1])] = [int(x) for x in w[2:7]]

    out, wire, rtt, conn, absd = [], [], [], [], []
    parts = {k: [] for k in ("to_syn", "syn_to_ret", "wire", "synack_to_wake",
                             "wake_to_t1", "ret_to_wait", "synack_before_wait")}
    j = 0
    for i, r in enumerate(rows):
        if r.get("result") != "ok":
            continue
        lo = starts[i]
        hi = starts[i + 1] if i + 1 < len(rows) else lo + 10 ** 12
        while j < len(syns) and syns[j][0] < lo:
            j += 1
        if j >= len(syns) or syns[j][0] >= hi:
            continue
        t_syn, cport = syns[j]
        acks = [t for t in synacks.get(cport, []) if t >= t_syn]
        if not acks:
            continue
        t_ack = acks[0]
        w = (t_ack - t_syn) / 1000.0
        c = float(r["connect_ms"]) * 1000.0
        k = r.get("rtt_us", "")
        wire.append(w)
        conn.append(c)
        if k != "":
            rtt.append(float(k))
            absd.append(abs(float(k) - w))
        out.append("%s %.3f %s %.1f" % (r["seq"], w, k or "-", c))
        seq = int(r["seq"])
        if offset is not None and seq in mono:
            t0, t_ret, t_wait, t_wake, t1 = mono[seq]
            s_m, a_m = t_syn - offset, t_ack - offset
            parts["to_syn"].append((s_m - t0) / 1e3)
            parts["syn_to_ret"].append((t_ret - s_m) / 1e3)
            parts["wire"].append((a_m - s_m) / 1e3)
            parts["synack_to_wake"].append((t_wake - a_m) / 1e3)
            parts["wake_to_t1"].append((t1 - t_wake) / 1e3)
            parts["ret_to_wait"].append((t_wait - t_ret) / 1e3)
            parts["synack_before_wait"].append(1.0 if a_m < t_wait else 0.0)
    if not wire:
        print("wire.py: no probe could be paired with a handshake "
              "(%d SYNs, %d rows)" % (len(syns), len(rows)), file=sys.stderr)
        sys.exit(1)
    print("\n".join(out))
    for k, v in parts.items():
        if v:
            print("# %s p50 %.2f p90 %.2f mean %.2f (us, n=%d)"
                  % (k, q7(v, 0.5), q7(v, 0.9), sum(v) / len(v), len(v)))
    over = [c - w for c, w in zip(conn, wire)]
    print("# connect - wire p50 %.1f p99 %.1f us" % (q7(over, .5), q7(over, .99)))
    fmt = lambda x: "nan" if x is None else "%.2f" % x
    print("summary n=%d nrtt=%d wire_p50=%s rtt_p50=%s connect_p50=%s "
          "absdiff_p50=%s over_p50=%s over_p99=%s"
          % (len(wire), len(rtt), fmt(q7(wire, .5)), fmt(q7(rtt, .5)),
             fmt(q7(conn, .5)), fmt(q7(absd, .5)), fmt(q7(over, .5)),
             fmt(q7(over, .99))))


if __name__ == "__main__":
    main()
