# Client/server protocol framing: the compiled twin of mysqlddl/binlog/_twin_packets.py (same
# results, same errors; tests/binlog/test_packets.py runs both).
#
#   [ payload_length: 3 LE ][ sequence_id: 1 ][ payload ]
#
# MySQL internals manual "MySQL Packets" and "Sending More Than 16Mbyte"; sql/net_serv.cc
# ``my_real_read``: the sequence id is checked per physical packet, a payload of exactly
# MAX_PACKET_LENGTH (0xFFFFFF) is continued by the next packet (possibly empty).

from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize
from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.string cimport memcpy, memmove

cdef extern from "Python.h":
    object PyMemoryView_FromMemory(char *mem, Py_ssize_t size, int flags)
    int PyBUF_WRITE

DEF MAX_PACKET_LENGTH = 0xFFFFFF
# the buffer kept once empty (one huge packet does not pin its size for the stream's life)
DEF _KEEP = 1 << 22

PACKET_OK = 0
PACKET_DATA = 1
PACKET_EOF = 0xFE
PACKET_ERR = 0xFF


cdef class PacketFramer:
    """See mysqlddl.binlog._twin_packets.PacketFramer."""

    cdef bytearray _buf          # capacity; the unread bytes are _buf[_start:_end]
    cdef Py_ssize_t _start
    cdef Py_ssize_t _end
    cdef list _parts
    cdef Py_ssize_t _partial
    cdef public int seq
    cdef public object max_size
    cdef public Py_ssize_t packets

    def __init__(self, int seq=0, max_size=1 << 31):
        self._buf = bytearray()
        self._start = 0
        self._end = 0
        self._parts = []
        self._partial = 0
        self.seq = seq & 0xFF
        self.max_size = max_size
        self.packets = 0

    @property
    def buffered(self):
        return self._end - self._start

    def reset(self, int seq=0):
        if self.buffered or self._parts:
            raise ProtocolError(f"{self.buffered} unread bytes (and {len(self._parts)} packet parts) "
                                "remain when a new command exchange starts")
        self.seq = seq & 0xFF

    cdef char *_room(self, Py_ssize_t want) except NULL:
        """Make ``want`` free bytes after ``_end`` (moving the unread bytes to the front, or growing
        the buffer) and return where they start."""
        cdef Py_ssize_t cap = PyByteArray_GET_SIZE(self._buf)
        cdef Py_ssize_t unread = self._end - self._start
        cdef char *base
        if cap - self._end < want and self._start:
            base = PyByteArray_AS_STRING(self._buf)
            memmove(base, base + self._start, unread)
            self._start = 0
            self._end = unread
        if cap - self._end < want:
            cap = max(2 * cap, self._end + want)
            PyByteArray_Resize(self._buf, cap)
        return PyByteArray_AS_STRING(self._buf) + self._end

    cdef void _emptied(self):
        # nothing unread: start over at the front, and give back what a huge packet made us take
        self._start = self._end = 0
        if PyByteArray_GET_SIZE(self._buf) > _KEEP:
            PyByteArray_Resize(self._buf, 0)

    def feed(self, data):
        cdef const unsigned char[::1] b = data
        cdef Py_ssize_t n = b.shape[0]
        if self._start == self._end:
            self._emptied()
        if n:
            memcpy(self._room(n), &b[0], n)
            self._end += n

    def read_from(self, recv_into, Py_ssize_t size=1 << 20):
        """See mysqlddl.binlog._twin_packets.PacketFramer.read_from (the socket writes straight into
        the buffer: a memoryview of its free bytes, made without an export, used for this one call)."""
        cdef char *room
        cdef Py_ssize_t n
        if self._start == self._end:
            self._emptied()
        room = self._room(size)
        n = recv_into(PyMemoryView_FromMemory(room, size, PyBUF_WRITE), size)
        if n < 0 or n > size:
            raise ProtocolError(f"recv_into reported {n} bytes for a buffer of {size}")
        self._end += n
        return n

    def next_packet(self):
        cdef const unsigned char *p
        cdef Py_ssize_t size, start, n
        cdef int seq
        cdef bytes part
        while True:
            start = self._start
            size = self._end
            if size - start < 4:
                return None
            p = <const unsigned char *>PyByteArray_AS_STRING(self._buf) + start
            n = p[0] | (<Py_ssize_t>p[1]) << 8 | (<Py_ssize_t>p[2]) << 16
            if size - start - 4 < n:
                return None
            seq = p[3]
            if seq != self.seq:
                raise ProtocolError(f"packet sequence id {seq}, expected {self.seq} (packets out of order)")
            if self._partial + n > self.max_size:
                raise ProtocolError(f"packet of more than {self.max_size} bytes "
                                    f"({self._partial + n} so far)")
            self.seq = (seq + 1) & 0xFF
            self._start = start + 4 + n
            part = PyBytes_FromStringAndSize(<const char *>(p + 4), n)
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
        """See mysqlddl.binlog._twin_packets.PacketFramer.next_event (one copy: the body only)."""
        cdef const unsigned char *p
        cdef Py_ssize_t size, start, n
        cdef int seq, kind
        if self._parts:
            return self._split(self.next_packet())
        start = self._start
        size = self._end
        if size - start < 4:
            return None
        p = <const unsigned char *>PyByteArray_AS_STRING(self._buf) + start
        n = p[0] | (<Py_ssize_t>p[1]) << 8 | (<Py_ssize_t>p[2]) << 16
        if n == MAX_PACKET_LENGTH or n == 0:
            return self._split(self.next_packet())     # reassembly (or an empty packet): the general path
        if size - start - 4 < n:
            return None
        seq = p[3]
        if seq != self.seq:
            raise ProtocolError(f"packet sequence id {seq}, expected {self.seq} (packets out of order)")
        if n > self.max_size:
            raise ProtocolError(f"packet of more than {self.max_size} bytes ({n} so far)")
        self.seq = (seq + 1) & 0xFF
        self._start = start + 4 + n
        self.packets += 1
        if p[4] == 0x00:
            kind = PACKET_OK
        elif p[4] == 0xFF:
            kind = PACKET_ERR
        elif p[4] == 0xFE and n < 9:
            kind = PACKET_EOF
        else:
            kind = PACKET_DATA
        return kind, PyBytes_FromStringAndSize(<const char *>(p + 5), n - 1)

    def _split(self, payload):
        if payload is None:
            return None
        return classify(payload), payload[1:]


def classify(payload):
    """See mysqlddl.binlog._twin_packets.classify."""
    cdef const unsigned char[::1] b = payload
    if b.shape[0] == 0:
        raise ProtocolError("empty packet where a response was due")
    if b[0] == 0x00:
        return PACKET_OK
    if b[0] == 0xFF:
        return PACKET_ERR
    if b[0] == 0xFE and b.shape[0] < 9:
        return PACKET_EOF
    return PACKET_DATA
