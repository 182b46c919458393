#!/usr/bin/env python3
"""Times SET + WAITAOF on throw-away valkey-server processes (docs/valkey.md): the
master's fsync pipelined behind the SET or sent after its reply, and a replica's fsync,
under appendfsync everysec and always. Loopback only; every server is shut down."""
import socket, subprocess, sys, tempfile, time

BIN = sys.argv[1] if len(sys.argv) > 1 else "valkey-server"
MASTER, REPLICA = 26431, 26432


def start(port, *extra):
    d = tempfile.mkdtemp(prefix="waitaof-probe-")
    return subprocess.Popen([BIN, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "yes", "--dir", d, "--repl-diskless-sync-delay", "0", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def resp(*args):
    return ("*%d\r\n" % len(args) + "".join("$%d\r\n%s\r\n" % (len(a), a) for a in args)).encode()


class Conn:
    def __init__(self, port):
        for _ in range(100):
            try:
                self.s = socket.create_connection(("127.0.0.1", port))
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("no server on %d" % port)

    def send(self, data, lines):  # reads until the reply holds this many CRLF-ended lines
        self.s.sendall(data)
        buf = b""
        while buf.count(b"\r\n") < lines:
            buf += self.s.recv(4096)
        return buf


def ms(t):
    return round((time.time() - t) * 1000, 2)


def probe_master_alone(policy):
    """The master's own fsync on a master with no replica (waitaof-local's topology)."""
    proc = start(MASTER, "--appendfsync", policy)
    try:
        m = Conn(MASTER)
        after, piped = [], []
        for i in range(6):
            t = time.time(); m.send(resp("SET", "a%d" % i, "v"), 1); m.send(resp("WAITAOF", "1", "0", "2000"), 3); after.append(ms(t))
            t = time.time(); m.send(resp("SET", "b%d" % i, "v") + resp("WAITAOF", "1", "0", "2000"), 4); piped.append(ms(t))
        print(policy, "master alone, WAITAOF 1 0 after the SET's reply, ms:", after)
        print(policy, "master alone, WAITAOF 1 0 pipelined behind the SET, ms:", piped)
    finally:
        proc.kill(); proc.wait()


def probe_replica(policy):
    """A replica's fsync, master and replica under the same policy."""
    procs = [start(MASTER, "--appendfsync", policy), start(REPLICA, "--appendfsync", policy, "--replicaof", "127.0.0.1", str(MASTER))]
    try:
        m, _ = Conn(MASTER), Conn(REPLICA)
        time.sleep(1.5)  # the replica's first sync
        replica = []
        for i in range(6):
            t = time.time(); m.send(resp("SET", "c%d" % i, "v"), 1); m.send(resp("WAITAOF", "0", "1", "3000"), 3); replica.append(ms(t))
        print(policy, "master + replica, WAITAOF 0 1 after the SET's reply, ms:", replica)
    finally:
        for p in procs:
            p.kill(); p.wait()


for policy in ["everysec", "always"]:
    probe_master_alone(policy)
    probe_replica(policy)
