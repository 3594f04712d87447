#!/usr/bin/env python3
"""py_prober.py - the minimal Python TCP connect prober that pathprobe is
compared against in `make bench` (bench/probe-accuracy.sh), written the
way the first reference article's tcp_latency.py measured: time around
socket.create_connection() with a timeout, then sleep the interval.

  py_prober.py probe HOST PORT COUNT INTERVAL TIMEOUT
      pathprobe's format-1 CSV (so the same tools read both): a header
      "seq,unix_ns,connect_ms,result", then one row per probe with the
      wall clock just before the timing starts, the connect time in ms
      with 3 decimals, and "ok", "timeout" or "error:<errno>"
  py_prober.py listen HOST SECONDS PORTFILE
      a listener for the bench: accepts, keeps each connection until the
      client closes it (like iperf3 -s waiting for its cookie), ends by
      itself after SECONDS; writes its port to PORTFILE when ready
"""
import os
import select
import socket
import sys
import time


def probe(host, port, count, interval, timeout):
    print("seq,unix_ns,connect_ms,result")
    for seq in range(count):
        wall = time.time_ns()
        t0 = time.perf_counter()
        try:
            s = socket.create_connection((host, port), timeout=timeout)
            ms = (time.perf_counter() - t0) * 1000.0
            s.close()
            print("%d,%d,%.3f,ok" % (seq, wall, ms))
        except socket.timeout:
            print("%d,%d,,timeout" % (seq, wall))
        except OSError as e:
            print("%d,%d,,error:%s" % (seq, wall, e.errno))
        time.sleep(interval)


def listen(host, seconds, portfile):
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, 0))
    s.listen(1024)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    conns = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([s] + conns, [], [], 0.05)
        for x in r:
            if x is s:
                conns.append(s.accept()[0])
                continue
            try:
                data = x.recv(4096)
            except OSError:
                data = b""
            if not data:
                conns.remove(x)
                x.close()


if __name__ == "__main__":
    if sys.argv[1] == "probe":
        probe(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
              float(sys.argv[5]), float(sys.argv[6]))
    elif sys.argv[1] == "listen":
        listen(sys.argv[2], float(sys.argv[3]), sys.argv[4])
    else:
        sys.exit("usage: py_prober.py probe|listen ...")
