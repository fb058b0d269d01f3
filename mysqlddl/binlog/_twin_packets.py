r"""Pure-Python twin of ``_speedups/packets.pxi``: client/server protocol framing, the same results
and the same errors (tests/binlog/test_packets.py runs both through the ``twin`` fixture).

A packet on the wire (MySQL internals manual, "MySQL Packets"; sql/net_serv.cc ``my_net_write`` /
``my_real_read``)::

    [ payload_length: 3 bytes LE ][ sequence_id: 1 ][ payload: payload_length bytes ]

- ``sequence_id`` counts the packets of one command exchange, mod 256; each side checks it
  (``my_real_read``: "Packets out of order").
- A payload of exactly 0xFFFFFF bytes (``MAX_PACKET_LENGTH``) is continued by the next packet (the
  manual's "Sending More Than 16Mbyte"); the logical payload ends with the first packet shorter than
  that, which may be empty. Each part has its own sequence id.
"""

from __future__ import annotations

from ..errors import ProtocolError

#: sql/net_serv.cc MAX_PACKET_LENGTH: a physical packet at most this long; this length means "more follows".
MAX_PACKET_LENGTH = 0xFFFFFF
#: The buffer kept once empty (one huge packet does not pin its size for the stream's life).
_KEEP = 1 << 22

# Packet kinds (the first payload byte; MySQL internals manual "Generic Response Packets":
# OK_Packet 0x00, ERR_Packet 0xFF, EOF_Packet 0xFE with a payload shorter than 9 bytes).
PACKET_OK = 0
PACKET_DATA = 1
PACKET_EOF = 0xFE
PACKET_ERR = 0xFF


class PacketFramer:
    """Splits a received byte stream into logical packets (reassembled past 16 MiB), checking the
    sequence ids.

    ``feed(data)`` appends received bytes, ``read_from(recv_into)`` receives them straight into the
    buffer (a socket's ``recv_into``: no bytes object per read); ``next_packet()`` returns the next complete payload or
    None when more bytes are needed; ``seq`` is the sequence id expected next (``reset(seq)`` sets
    it, e.g. to 1 after a command was sent with 0); ``buffered`` is how many bytes wait.
    ``max_size`` bounds a reassembled payload (a peer announcing more is broken)."""

    def __init__(self, seq: int = 0, max_size: int = 1 << 31):
        self._buf = bytearray()     # capacity; the unread bytes are _buf[_start:_end]
        self._start = 0
        self._end = 0
        self._parts: list[bytes] = []
        self._partial = 0
        self.seq = seq & 0xFF
        self.max_size = max_size
        self.packets = 0

    @property
    def buffered(self) -> int:
        return self._end - self._start

    def reset(self, seq: int = 0) -> None:
        """Expect ``seq`` next (a new command exchange); bytes still buffered are an error."""
        if self.buffered or self._parts:
            raise ProtocolError(f"{self.buffered} unread bytes (and {len(self._parts)} packet parts) "
                                "remain when a new command exchange starts")
        self.seq = seq & 0xFF

    def _room(self, want: int) -> int:
        """Make ``want`` free bytes after ``_end`` (moving the unread bytes to the front, or growing
        the buffer); returns ``_end``."""
        buf = self._buf
        if len(buf) - self._end < want and self._start:
            unread = self._end - self._start
            buf[:unread] = buf[self._start:self._end]
            self._start, self._end = 0, unread
        if len(buf) - self._end < want:
            buf.extend(bytes(max(2 * len(buf), self._end + want) - len(buf)))
        return self._end

    def _emptied(self) -> None:
        # nothing unread: start over at the front, and give back what a huge packet made us take
        self._start = self._end = 0
        if len(self._buf) > _KEEP:
            self._buf = bytearray()

    def feed(self, data) -> None:
        if self._start == self._end:
            self._emptied()
        n = len(data)
        if n:
            end = self._room(n)
            self._buf[end:end + n] = data
            self._end = end + n

    def read_from(self, recv_into, size: int = 1 << 20) -> int:
        """Receive at most ``size`` bytes by calling ``recv_into(view, size)`` (a socket's) on the
        buffer's free bytes: the count, 0 when the peer closed; its exceptions pass through. One
        reusable buffer: no bytes object allocated per read (a large one is fresh memory each time,
        page faults and all), and no copy from it into the buffer."""
        if self._start == self._end:
            self._emptied()
        end = self._room(size)
        with memoryview(self._buf) as whole, whole[end:end + size] as view:
            n = recv_into(view, size)
        if n < 0 or n > size:
            raise ProtocolError(f"recv_into reported {n} bytes for a buffer of {size}")
        self._end = end + n
        return n

    def next_packet(self):
        buf = self._buf
        while True:
            start = self._start
            if self._end - start < 4:
                return None
            n = buf[start] | buf[start + 1] << 8 | buf[start + 2] << 16
            if self._end - start - 4 < n:
                return None
            seq = buf[start + 3]
            if seq != self.seq:
                raise ProtocolError(f"packet sequence id {seq}, expected {self.seq} (packets out of order)")
            if self._partial + n > self.max_size:
                raise ProtocolError(f"packet of more than {self.max_size} bytes "
                                    f"({self._partial + n} so far)")
            self.seq = (seq + 1) & 0xFF
            self._start = start + 4 + n
            part = bytes(buf[start + 4:start + 4 + n])
            if n == MAX_PACKET_LENGTH:
                self._parts.append(part)
                self._partial += n
                continue
            self.packets += 1
            if self._parts:
                self._parts.append(part)
                part = b"".join(self._parts)
                self._parts = []
                self._partial = 0
            return part


    def next_event(self):
        """The next complete payload as ``(kind, body)``: ``kind`` as :func:`classify` gives it and
        ``body`` the payload after its first byte (a binlog stream's event packet is 0x00 then the
        event: the event's bytes, without a second copy); None when more bytes are needed."""
        p = self.next_packet()
        if p is None:
            return None
        return classify(p), p[1:]


def classify(payload) -> int:
    """PACKET_OK, PACKET_ERR, PACKET_EOF or PACKET_DATA by the first byte (and an EOF's short length)."""
    if not len(payload):
        raise ProtocolError("empty packet where a response was due")
    first = payload[0]
    if first == 0x00:
        return PACKET_OK
    if first == 0xFF:
        return PACKET_ERR
    if first == 0xFE and len(payload) < 9:
        return PACKET_EOF
    return PACKET_DATA


def parse_err(payload) -> tuple[int, str, str]:
    """An ERR_Packet (MySQL internals manual "ERR_Packet"; sql/protocol_classic.cc
    ``net_send_error_packet``)::

        0xFF | error_code: 2 LE | ['#' sql_state: 5] | error_message: rest

    -> (code, sqlstate or "", message)."""
    if len(payload) < 3 or payload[0] != 0xFF:
        raise ProtocolError(f"not an ERR packet: {bytes(payload[:16]).hex(' ')}")
    code = payload[1] | payload[2] << 8
    rest = bytes(payload[3:])
    state = ""
    if rest[:1] == b"#" and len(rest) >= 6:
        state, rest = rest[1:6].decode("ascii", "replace"), rest[6:]
    return code, state, rest.decode("utf-8", "replace")


def frame(payload, seq: int) -> bytes:
    """``payload`` as the packets that carry it, starting at sequence id ``seq`` (split at
    MAX_PACKET_LENGTH, an empty packet closing a payload that is a multiple of it)."""
    out = bytearray()
    view = memoryview(bytes(payload))
    off = 0
    while True:
        chunk = view[off:off + MAX_PACKET_LENGTH]
        out += len(chunk).to_bytes(3, "little") + bytes([seq & 0xFF]) + chunk
        seq += 1
        off += len(chunk)
        if len(chunk) < MAX_PACKET_LENGTH:
            return bytes(out)
