#!/usr/bin/env python3
"""fake-imds.py PORTFILE SECONDS [KEY=VALUE...] - a loopback stand-in for
the EC2 instance metadata service (IMDSv2: PUT /latest/api/token, then
GETs with the X-aws-ec2-metadata-token header).  KEY=VALUE replaces one
answer (KEY as in DATA, e.g. instance-type), to test hostile answers.
Ends by itself after SECONDS."""
import http.server
import os
import sys
import threading

TOKEN = "fake-token-123"
DATA = {
    "instance-type": "c6i.large",
    "placement/availability-zone": "ap-northeast-1a",
    "placement/availability-zone-id": "apne1-az4",
    "placement/region": "ap-northeast-1",
}


class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, code, body=b""):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self):
        if self.path == "/latest/api/token":
            self.reply(200, TOKEN.encode())
        else:
            self.reply(404)

    def do_GET(self):
        if self.headers.get("X-aws-ec2-metadata-token") != TOKEN:
            self.reply(401)
            return
        key = self.path[len("/latest/meta-data/"):]
        if self.path.startswith("/latest/meta-data/") and key in DATA:
            self.reply(200, DATA[key].encode())
        else:
            self.reply(404)


for kv in sys.argv[3:]:
    k, v = kv.split("=", 1)
    DATA[k] = v
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
tmp = sys.argv[1] + ".tmp"
with open(tmp, "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(tmp, sys.argv[1])
threading.Timer(float(sys.argv[2]), srv.shutdown).start()
srv.serve_forever()
