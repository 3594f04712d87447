#!/usr/bin/env python3
"""listen.py - loopback (or test-namespace) peers for the pathprobe tests.

  listen.py accept HOST SECONDS PORTFILE   accept, close when the client does
  listen.py full HOST SECONDS PORTFILE     listen(fd, 0), fill the accept
                                           queue, never accept: SYNs dropped
  listen.py closed HOST PORTFILE           a port that was just closed
  listen.py udpsink HOST SECONDS PORTFILE  a UDP socket that never answers
  listen.py blast HOST SECONDS PORT        send to HOST:PORT (an accept
                                           peer) as fast as TCP allows,
                                           to keep a rate-limited queue full

The port is written to PORTFILE (atomically) once the socket is ready.
Every mode ends by itself after SECONDS: tests stay bounded in time.
"""
import os
import select
import socket
import sys
import time


def family(host):
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def publish(portfile, port):
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, portfile)


def main():
    mode, host = sys.argv[1], sys.argv[2]
    if mode == "closed":
        s = socket.socket(family(host), socket.SOCK_STREAM)
        s.bind((host, 0))
        port = s.getsockname()[1]
        s.close()
        publish(sys.argv[3], port)
        return
    seconds, portfile = float(sys.argv[3]), sys.argv[4]
    end = time.monotonic() + seconds
    if mode == "blast":
        c = socket.create_connection((host, int(portfile)), 2)
        c.settimeout(0.1)
        buf = bytes(65536)
        while time.monotonic() < end:
            try:
                c.send(buf)
            except socket.timeout:
                pass
        c.close()
        return
    if mode == "udpsink":
        s = socket.socket(family(host), socket.SOCK_DGRAM)
        s.bind((host, 0))
        publish(portfile, s.getsockname()[1])
        s.settimeout(0.05)
        while time.monotonic() < end:
            try:
                s.recv(65536)
            except socket.timeout:
                pass
        return
    s = socket.socket(family(host), socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, 0))
    port = s.getsockname()[1]
    if mode == "full":
        s.listen(0)
        # With backlog 0 one queued connection fills the accept queue;
        # Linux then drops further SYNs (tcp_conn_request: acceptq full),
        # with or without syncookies.  Two more are sent to be sure.
        fill = []
        for _ in range(3):
            c = socket.socket(family(host), socket.SOCK_STREAM)
            c.setblocking(False)
            try:
                c.connect((host, port))
            except (BlockingIOError, InterruptedError):
                pass
            fill.append(c)
        time.sleep(0.2)
        publish(portfile, port)
        while time.monotonic() < end:
            time.sleep(0.05)
        return
    s.listen(1024)
    publish(portfile, port)
    # Like iperf3 -s waiting for its cookie: keep each connection until
    # the client closes it, so the client closes first (its TIME_WAIT).
    conns = []
    while time.monotonic() < end:
        r, _, _ = select.select([s] + conns, [], [], 0.05)
        for x in r:
            if x is s:
                c, _ = s.accept()
                conns.append(c)
                continue
            try:
                data = x.recv(4096)
            except OSError:
                data = b""
            if not data:
                conns.remove(x)
                x.close()


if __name__ == "__main__":
    main()
