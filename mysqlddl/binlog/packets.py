"""Client/server packet framing for server sources: the selector's face.

``PacketFramer`` and ``classify`` come from the implementation :mod:`.speedups` selected (the
compiled ``_speedups/packets.pxi`` or its pure twin :mod:`._twin_packets`), looked up when called so
the ``twin`` test fixture reaches them; the rest (ERR parsing, framing what we send) is not on the
hot path and exists once, in the twin module. Only this package imports ``_speedups``, hence this
module: :mod:`mysqlddl.sources.server` frames the wire through it.
"""

from __future__ import annotations

from . import speedups
from ._twin_packets import MAX_PACKET_LENGTH, PACKET_DATA, PACKET_EOF, PACKET_ERR, PACKET_OK, frame, parse_err


def framer(seq: int = 0, max_size: int = 1 << 31):
    """A new PacketFramer of the selected implementation, expecting sequence id ``seq`` first."""
    return speedups.impl.PacketFramer(seq, max_size)


def classifier():
    """The selected implementation's ``classify(payload) -> PACKET_*`` (bind it once per stream)."""
    return speedups.impl.classify


__all__ = ["MAX_PACKET_LENGTH", "PACKET_DATA", "PACKET_EOF", "PACKET_ERR", "PACKET_OK", "classifier", "frame",
           "framer", "parse_err"]
