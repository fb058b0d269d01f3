"""The GTID set a checkpoint carries: every GTID read up to its position (the change reader keeps it,
and every :class:`~mysqlddl.changes.records.Boundary` carries its text).

Two flavours, told apart by the GTID text itself:

- MySQL ``uuid:gno`` (``uuid:tag:gno`` when tagged, MySQL 8.4): per source (uuid, or uuid:tag) a
  list of closed intervals, written as the server writes ``gtid_executed``
  (``uuid:1-5:7,uuid2:1-3``; MySQL 8.4 manual, "GTID Sets");
- MariaDB ``domain-server-seq``: per replication domain the last GTID seen, as the server's
  ``gtid_binlog_pos`` holds it (MariaDB KB "Global Transaction ID", "gtid_binlog_pos": one GTID per
  domain, the most recent); the text is the comma-separated list.

Seeded from the checkpoint's text on a restart (``ChangeReader(gtid_set=...)``), or from the first
file's PREVIOUS_GTIDS (MySQL) / GTID_LIST (MariaDB) event when reading starts at the beginning of a file.
"""

from __future__ import annotations

import re

from ..errors import ConfigError

_MARIADB = re.compile(r"(\d+)-(\d+)-(\d+)")


class GtidTracker:
    """A growing GTID set (see the module docstring); ``add`` is called once per transaction, and
    :attr:`text` once per transaction end (so it is kept until the set changes, and built from
    parts kept while they hold: a transaction moves the end of one source's last interval, so the
    text of a set with many intervals is not written whole again for each transaction)."""

    __slots__ = ("_domains", "_heads", "_mysql", "_order", "_text")

    def __init__(self, text: str = ""):
        self._text: str | None = None
        self._mysql: dict[str, list[list[int]]] = {}
        self._domains: dict[int, tuple[int, int]] = {}
        self._heads: dict[str, str] = {}        # source -> its text but for its last interval
        self._order: list[str] | None = None    # the MySQL sources in text order
        for item in filter(None, (x.strip() for x in (text or "").split(","))):
            m = _MARIADB.fullmatch(item)
            if m:
                self._domains[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
                continue
            parts = item.split(":")
            source = parts[0].lower()
            for part in parts[1:]:
                lo, sep, hi = part.partition("-")
                if lo.isdigit() and (not sep or hi.isdigit()):
                    self._add_interval(source, int(lo), int(hi) if sep else int(lo))
                elif part:
                    source = f"{parts[0].lower()}:{part}"
                else:
                    raise ConfigError(f"not a GTID set item: {item!r}")

    def _add_interval(self, source: str, lo: int, hi: int) -> None:
        self._text = None
        self._heads.pop(source, None)
        if source not in self._mysql:
            self._order = None
        ivs = self._mysql.setdefault(source, [])
        ivs.append([lo, hi])
        ivs.sort()
        merged: list[list[int]] = []
        for a, b in ivs:
            if merged and a <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self._mysql[source] = merged

    def add(self, gtid: str | None) -> None:
        """One transaction's GTID (None: an anonymous transaction, nothing to add)."""
        if not gtid:
            return
        self._text = None
        parts = gtid.split("-")
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit() and parts[2].isdigit():
            # MariaDB domain-server-seq (a MySQL uuid has four dashes): once per transaction, so
            # without the regular expression
            self._domains[int(parts[0])] = (int(parts[1]), int(parts[2]))
            return
        source, _, gno = gtid.rpartition(":")
        n = int(gno)
        ivs = self._mysql.get(source.lower())
        if ivs and ivs[-1][1] + 1 == n:       # the common case: the next number of the same source
            ivs[-1][1] = n
            return
        self._add_interval(source.lower(), n, n)

    def add_set(self, text: str) -> None:
        """Every GTID of a set in text form (a PREVIOUS_GTIDS or GTID_LIST event's)."""
        other = GtidTracker(text)
        for source, ivs in other._mysql.items():
            for lo, hi in ivs:
                self._add_interval(source, lo, hi)
        for domain, (server, seq) in other._domains.items():
            # (a GTID_LIST at a file's start is the state there, which a stream started after a
            # GTID set, as after a failover, may have passed: a domain's seq_no never goes back)
            if domain not in self._domains or seq >= self._domains[domain][1]:
                self._domains[domain] = (server, seq)
                self._text = None

    @property
    def text(self) -> str:
        if self._text is not None:
            return self._text
        if len(self._domains) == 1 and not self._mysql:
            # (the common MariaDB case, once per transaction: one replication domain)
            for d, (s, q) in self._domains.items():
                self._text = f"{d}-{s}-{q}"
            return self._text
        parts = [f"{d}-{s}-{q}" for d, (s, q) in sorted(self._domains.items())]
        order = self._order
        if order is None:
            order = self._order = sorted(self._mysql)
        heads = self._heads
        for source in order:
            ivs = self._mysql[source]
            head = heads.get(source)
            if head is None:
                head = heads[source] = source + "".join(f":{a}" if a == b else f":{a}-{b}" for a, b in ivs[:-1])
            a, b = ivs[-1]
            parts.append(f"{head}:{a}" if a == b else f"{head}:{a}-{b}")
        self._text = ",".join(parts)
        return self._text

    def __str__(self) -> str:
        return self.text


__all__ = ["GtidTracker"]
