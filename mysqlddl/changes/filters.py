"""What a ChangeReader emits: GTID sets, positions, and the include/exclude filters
(mysqlbinlog's own filters: --start/stop-position, --start/stop-datetime, databases, tables,
--include/exclude-gtids)."""

from __future__ import annotations

import dataclasses
import re
from fnmatch import fnmatchcase

from ..errors import ConfigError

# a GTID tag: a letter or underscore, then up to 31 letters, digits or underscores (MySQL 8.4
# manual, "GTID Format and Storage"; mysql::gtid::Tag::is_valid in libs/mysql/gtid/tag.cpp)
_TAG = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_INTERVAL = re.compile(r"\d+(?:-\d+)?")


class GtidSet:
    """A set of GTIDs: MySQL ``uuid:1-5:7[,uuid2:3]`` (tags as ``uuid:tag:1-5``) or MariaDB
    ``domain-server-seq`` items, where a MariaDB range is written MySQL-style as
    ``domain-server:1-5:7``."""

    def __init__(self, text: str):
        self.text = text
        self._ranges: dict[str, list[tuple[int, int]]] = {}
        for item in filter(None, (x.strip() for x in text.split(","))):
            m = re.fullmatch(r"(\d+)-(\d+)-(\d+)", item)
            if m:
                self._add(f"{m.group(1)}-{m.group(2)}", [m.group(3)], item)
                continue
            # uuid (or a MariaDB domain-server) then intervals and tags: MySQL 8.4's form
            # uuid:1-5:tag1:3-4:tag2:7, where a tag applies to the intervals after it up to the next
            # tag (MySQL 8.4 manual, "GTID Sets" / "GTID Format and Storage")
            uuid, *parts = item.split(":")
            source, groups = uuid, 0
            for part in parts:
                if _INTERVAL.fullmatch(part):
                    self._add(source, [part], item)
                    groups += 1
                elif _TAG.fullmatch(part) and (source == uuid or groups):
                    source, groups = f"{uuid}:{part}", 0
                else:
                    raise ConfigError(f"not a GTID interval or tag in {item!r}: {part!r}")
            if not uuid or not groups:
                raise ConfigError(f"not a GTID set item: {item!r}")

    def _add(self, source: str, intervals, item: str) -> None:
        for iv in intervals:
            m = re.fullmatch(r"(\d+)(?:-(\d+))?", iv)
            if not m:
                raise ConfigError(f"not a GTID interval in {item!r}: {iv!r}")
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) else lo
            if hi < lo:
                raise ConfigError(f"empty GTID interval in {item!r}: {iv!r}")
            self._ranges.setdefault(source.lower(), []).append((lo, hi))

    def __contains__(self, gtid: str | None) -> bool:
        if gtid is None:
            return False
        source, _, n = gtid.rpartition(":") if ":" in gtid else gtid.rpartition("-")
        try:
            no = int(n)
        except ValueError:
            return False
        return any(lo <= no <= hi for lo, hi in self._ranges.get(source.lower(), ()))

    def __repr__(self) -> str:
        return f"GtidSet({self.text!r})"


def parse_position(value) -> tuple[str | None, int] | None:
    """``(file or None, pos)`` of a position given as N, ``FILE:N`` or None (None); a ConfigError
    for anything else."""
    if value is None:
        return None
    if isinstance(value, int):
        return (None, value)
    text = str(value)
    f, sep, p = text.rpartition(":")
    try:
        return (f or None, int(p)) if sep else (None, int(text))
    except ValueError:
        raise ConfigError(f"not a binlog position (N or FILE:N): {text!r}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class Filters:
    """What is emitted (the history is always built from every DDL, so a filter never changes the
    names a row gets). Positions: an int (in the first file for ``start``, the last for
    ``stop``, as mysqlbinlog) or ``FILE:N``; an event is emitted when start <= its position <
    stop. Datetimes: epoch seconds (event header timestamps), start inclusive, stop exclusive.
    ``databases``/``tables`` include (empty: all) and ``exclude_*`` patterns (fnmatch, tables as
    ``db.table`` or ``table``; case-sensitive). ``include_gtids``/``exclude_gtids``: whole
    transactions by GTID."""

    start_position: object = None
    stop_position: object = None
    start_ts: int | None = None
    stop_ts: int | None = None
    databases: tuple[str, ...] = ()
    exclude_databases: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    exclude_tables: tuple[str, ...] = ()
    include_gtids: GtidSet | None = None
    exclude_gtids: GtidSet | None = None

    def __post_init__(self) -> None:
        parse_position(self.start_position)
        parse_position(self.stop_position)

    def table_ok(self, db: str | None, table: str | None) -> bool:
        db = db or ""
        if self.databases and not any(fnmatchcase(db, p) for p in self.databases):
            return False
        if any(fnmatchcase(db, p) for p in self.exclude_databases):
            return False
        if table is None:
            return True
        q = f"{db}.{table}"

        def hit(p):
            return fnmatchcase(q, p) if "." in p else fnmatchcase(table, p)

        if self.tables and not any(hit(p) for p in self.tables):
            return False
        return not any(hit(p) for p in self.exclude_tables)

    def gtid_ok(self, gtid: str | None) -> bool:
        if self.include_gtids is not None and gtid not in self.include_gtids:
            return False
        return not (self.exclude_gtids is not None and gtid in self.exclude_gtids)

    def ts_ok(self, ts: int) -> bool:
        if self.start_ts is not None and ts < self.start_ts:
            return False
        return not (self.stop_ts is not None and ts >= self.stop_ts)



__all__ = ["Filters", "GtidSet", "parse_position"]
