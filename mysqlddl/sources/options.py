"""The options of a source: one frozen object (STYLE 13), validated when built."""

from __future__ import annotations

import dataclasses

from ..errors import ConfigError
from ..options import DEFAULT, Options


def parse_file_pos(value, what: str) -> tuple[str | None, int] | None:
    """``FILE:POS`` (or a bare POS) -> (file or None, pos); None stays None."""
    if value is None:
        return None
    if isinstance(value, tuple):
        return value
    f, sep, p = str(value).rpartition(":")
    try:
        pos = int(p if sep else value)
    except ValueError:
        raise ConfigError(f"{what}: not a binlog position (FILE:POS): {value!r}") from None
    if pos < 0:
        raise ConfigError(f"{what}: negative position {pos}")
    return (f or None, pos)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SourceOptions:
    """How a source reads.

    ``decode``: the decoding Options (checksums, error policy...). Start, at most one of:
    ``start`` ``FILE:POS`` (a server: a file it still has; default its first binlog), ``from_now``
    (a server: its current end, SHOW MASTER STATUS), ``start_gtid`` (a server: MySQL
    ``uuid:1-5,...`` -- the transactions *not* in it are sent; MariaDB ``domain-server-seq,...``, one
    per domain -- the transactions after them). Stop: ``stop`` ``FILE:POS`` (events starting at or
    after it are not read); else a server stops at the end it reported when the stream started,
    unless ``follow`` (never stops). ``allow_minimal``: accept ``binlog_row_image=MINIMAL``/``NOBLOB``
    (rows then carry only some columns). ``defaults_file``: a MySQL option file whose ``[client]``
    group gives the user and password. Reconnection: up to ``reconnect_attempts`` tries in a row,
    waiting ``reconnect_delay`` doubling up to ``reconnect_max_delay`` seconds, each scaled by a random
    factor in [0.5, 1] (jitter, so replicas cut together do not reconnect together).
    ``expected_server_uuid``: the ``server_uuid`` a stored file position was taken on (refused if
    the server's differs); ``expected_server_id``: its ``server_id``, the identity MariaDB gives
    (it has no ``server_uuid``). Neither applies to a ``start_gtid`` (a GTID position survives a
    failover; a file position does not). ``snapshot``: ``never`` (default), ``schema-only`` or ``initial`` (read
    by the snapshot hook, see :mod:`mysqlddl.sources.server.stream`). ``poll``: seconds between two
    looks at a followed file that has not grown (a directory source with ``follow``).

    One validation for every front end: ``mysqlddl changes`` (``--start-position``, ``--start-gtid``,
    ``--from-now``, ``--snapshot``) and a pipeline file's ``[source]`` build this object, so both
    refuse the same things with the same words.
    """

    decode: Options = DEFAULT
    start: object = None
    stop: object = None
    from_now: bool = False
    start_gtid: str | None = None
    follow: bool = False
    allow_minimal: bool = False
    defaults_file: str | None = None
    reconnect_attempts: int = 5
    reconnect_delay: float = 0.5
    reconnect_max_delay: float = 30.0
    expected_server_uuid: str | None = None
    expected_server_id: int | None = None
    snapshot: str = "never"
    poll: float = 0.2

    def __post_init__(self):
        if not isinstance(self.decode, Options):
            raise ConfigError(f"decode must be an Options, not {type(self.decode).__name__}")
        starts = [n for n, v in (("start", self.start), ("from_now", self.from_now), ("start_gtid", self.start_gtid))
                  if v]
        if len(starts) > 1:
            raise ConfigError(f"give one start, not {' and '.join(starts)}")
        object.__setattr__(self, "start", parse_file_pos(self.start, "start"))
        object.__setattr__(self, "stop", parse_file_pos(self.stop, "stop"))
        if self.follow and self.stop is not None:
            raise ConfigError("follow never stops: give follow or stop, not both")
        if self.reconnect_attempts < 0 or self.reconnect_delay < 0 or self.reconnect_max_delay < self.reconnect_delay:
            raise ConfigError("reconnect_attempts >= 0 and 0 <= reconnect_delay <= reconnect_max_delay")
        if self.snapshot not in ("never", "schema-only", "initial"):
            raise ConfigError(f"snapshot is never, schema-only or initial, not {self.snapshot!r}")
        if not self.poll > 0:
            raise ConfigError(f"poll must be a positive number of seconds, not {self.poll!r}")

    def replace(self, **changes) -> SourceOptions:
        return dataclasses.replace(self, **changes)


__all__ = ["SourceOptions", "parse_file_pos"]
