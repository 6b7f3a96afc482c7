# SPDX-License-Identifier: MIT
"""Clients sending wrong Basic auth passwords to cgtop2 --listen, one from each of the loopback
addresses 127.0.0.FIRST to 127.0.0.LAST, each its requests one after the other on a kept-alive
connection, a new password each time (an attacker's guesses), until the file STOP appears or
MAX requests each. The file READY is made once every client had a 429. Prints the answers
counted, "status:count ..." (tests/cgtop2_serve.sh, bench/cgtop2_serve.sh).

usage: python3 pwflood.py PORT FIRST LAST STOP READY MAX
"""
import base64
import collections
import http.client
import os
import sys
import threading


def main():
    port, first, last = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    stop, ready, most = sys.argv[4], sys.argv[5], int(sys.argv[6])
    codes, lock, throttled = collections.Counter(), threading.Lock(), set()

    def client(n):
        conn = None
        for i in range(most):
            if os.path.exists(stop):
                break
            auth = "Basic " + base64.b64encode(b"scraper:wrong%d-%d" % (n, i)).decode()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(
                        "127.0.0.1", port, timeout=60, source_address=("127.0.0.%d" % n, 0))
                conn.request("GET", "/metrics", headers={"Authorization": auth})
                r = conn.getresponse()
                r.read()
                code = r.status
                if code == 429 and int(r.getheader("Retry-After", "0")) >= 1:
                    with lock:
                        throttled.add(n)
                        if len(throttled) == last - first + 1:
                            open(ready, "w").close()
            except Exception as e:
                code, conn = type(e).__name__, None
            with lock:
                codes[code] += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(first, last + 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(" ".join("%s:%d" % kv for kv in sorted(codes.items(), key=str)))


main()
