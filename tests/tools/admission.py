#!/usr/bin/env python3
"""Talks to `wingen serve` as the API server does: HTTPS verified against
the CA bundle with the Service's DNS name (SNI and hostname check), POST
an AdmissionReview, read the answer.  Used by tests/sh/serve.sh.

  admission.py PORT CA review REVIEW.json [--path /mutate] [--host NAME]
      prints the response AdmissionReview (JSON) on stdout; exit 1 on an
      HTTP error (status and body on stderr)
  admission.py PORT CA apply REVIEW.json RESPONSE.json OUT.json
      applies the response's patch (base64 JSON Patch) to request.object
      with python3-jsonpatch, writes the result
  admission.py PORT CA get PATH         GET, print the body
  admission.py PORT CA raw PATH FILE    POST FILE as is, print "STATUS body"
  admission.py PORT CA serial [--host NAME]   the serving cert's serial
  admission.py PORT CA slow REVIEW.json SIGNAL_PID
      sends the headers and half the body, signals SIGTERM to the pid,
      sends the rest: prints the status of the answer
"""
import base64
import http.client
import json
import os
import signal
import socket
import ssl
import sys
import time


def connect(port, ca, host):
    ctx = ssl.create_default_context(cafile=ca)
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    tls = ctx.wrap_socket(sock, server_hostname=host)
    conn = http.client.HTTPSConnection(host, port, context=ctx, timeout=20)
    conn.sock = tls
    return conn, tls


def opt(args, name, default):
    if name in args:
        i = args.index(name)
        return args[i + 1]
    return default


def main():
    port, ca, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    host = opt(args, "--host", "wingen.wingen-system.svc")
    if cmd == "apply":
        import jsonpatch
        review = json.load(open(args[0]))
        resp = json.load(open(args[1]))["response"]
        obj = review["request"]["object"]
        if resp.get("patch"):
            assert resp["patchType"] == "JSONPatch", resp
            ops = json.loads(base64.b64decode(resp["patch"]))
            obj = jsonpatch.JsonPatch(ops).apply(obj)
        json.dump(obj, open(args[2], "w"))
        return 0
    conn, tls = connect(port, ca, host)
    if cmd == "serial":
        import hashlib
        print(hashlib.sha256(tls.getpeercert(True)).hexdigest())
        return 0
    if cmd == "get":
        conn.request("GET", args[0])
        r = conn.getresponse()
        sys.stdout.write(r.read().decode())
        return 0 if r.status == 200 else 1
    if cmd == "raw":
        # by hand: a server may answer (413) before the body is sent
        body = open(args[1], "rb").read()
        tls.sendall(("POST %s HTTP/1.1\r\nHost: %s\r\n"
                     "Content-Type: application/json\r\n"
                     "Content-Length: %d\r\n\r\n" % (args[0], host,
                                                         len(body)))
                    .encode())
        try:
            tls.sendall(body)
        except (ssl.SSLError, OSError):
            pass
        r = http.client.HTTPResponse(tls)
        r.begin()
        print(r.status, r.read().decode().strip()[:300])
        return 0
    if cmd == "review":
        body = open(args[0], "rb").read()
        conn.request("POST", opt(args, "--path", "/mutate"), body,
                     {"Content-Type": "application/json"})
        r = conn.getresponse()
        data = r.read().decode()
        if r.status != 200:
            sys.stderr.write("HTTP %d: %s\n" % (r.status, data))
            return 1
        sys.stdout.write(data)
        return 0
    if cmd == "slow":
        body = open(args[0], "rb").read()
        half = len(body) // 2
        tls.sendall(("POST /mutate HTTP/1.1\r\nHost: %s\r\n"
                     "Content-Type: application/json\r\n"
                     "Content-Length: %d\r\n\r\n" % (host, len(body)))
                    .encode() + body[:half])
        time.sleep(0.5)
        os.kill(int(args[1]), signal.SIGTERM)
        time.sleep(0.5)
        tls.sendall(body[half:])
        r = http.client.HTTPResponse(tls)
        r.begin()
        data = r.read().decode()
        uid = json.loads(data)["response"]["uid"] if r.status == 200 else ""
        print(r.status, uid)
        return 0
    sys.stderr.write("admission.py: unknown command %s\n" % cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main())
