"""An in-process TCP proxy on loopback that cuts or stalls chosen connections at chosen byte counts
(the fault injector of the server-source tests; ARCHITECTURE.md "Key decisions": faults are made
on loopback only).

    proxy = TcpProxy(server_port, plans={2: ("cut", 50_000), 3: ("stall", 10_000)})
    ... connect to 127.0.0.1:proxy.port ...
    proxy.close()

Connections are numbered from 1 in the order they are accepted. A plan applies to the bytes the
server sends on that connection: ``("cut", n)`` forwards ``n`` bytes then closes both sides (a
dropped connection); ``("stall", n)`` forwards ``n`` bytes then forwards nothing more, keeping
the sockets open (a silent NAT drop: only a read timeout notices); ``("hold", event)`` forwards
nothing from the server until ``event`` (a threading.Event) is set. ``retarget(port)`` then
``cut_all()`` moves the address to another server (a failover behind a virtual IP).
"""

from __future__ import annotations

import socket
import threading


class TcpProxy:
    def __init__(self, target_port: int, plans: dict | None = None, host: str = "127.0.0.1"):
        self.target = (host, target_port)
        self.plans = dict(plans or {})
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((host, 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        self.faults: list[tuple[int, str, int]] = []     # (connection, kind, bytes forwarded) as they happened
        self._socks: list[socket.socket] = []
        self._closed = threading.Event()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=10)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                self.accepted += 1
                n = self.accepted
                self._socks += [client, server]
            plan = self.plans.get(n)
            threading.Thread(target=self._pump, args=(client, server, None, n), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, plan, n), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, plan, n: int) -> None:
        sent = 0
        kind, arg = plan if plan else (None, None)
        if kind == "hold":
            arg.wait()
            kind = None
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if kind in ("cut", "stall") and sent + len(data) >= arg:
                    dst.sendall(data[:arg - sent])
                    sent = arg
                    self.faults.append((n, kind, sent))
                    if kind == "cut":
                        break
                    self._closed.wait()          # stall: hold the sockets open, forward nothing
                    break
                dst.sendall(data)
                sent += len(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def retarget(self, port: int) -> None:
        """Send the connections accepted from now on to ``port`` on the same host (an address that
        moved to another server: a virtual IP after a failover)."""
        self.target = (self.target[0], port)

    def cut_all(self) -> None:
        """Drop every connection made so far, both sides (the moved address does)."""
        with self._lock:
            socks = list(self._socks)
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self._closed.set()
        self.listener.close()
        with self._lock:
            for s in self._socks:
                try:
                    s.close()
                except OSError:
                    pass
