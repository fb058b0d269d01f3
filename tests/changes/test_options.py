"""ChangeOptions: one frozen, validated object (enums for the modes; errors are ConfigError)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mysqlddl.binlog.events import XidEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.changes import ChangeOptions, ChangeReader, Filters, OnMismatch, PkChange, RowChange, SchemaChange
from mysqlddl.errors import ConfigError
from mysqlddl.options import Options
from mysqlddl.sources import open_source


def test_defaults_and_enums():
    o = ChangeOptions()
    assert o.on_mismatch is OnMismatch.RAISE and o.pk_change is PkChange.UPDATE
    assert o.transactions and o.schema_changes and o.rows and o.queries and o.record_ddl
    # the CLI's strings convert to the enums
    o = ChangeOptions(on_mismatch="flag", pk_change="split")
    assert o.on_mismatch is OnMismatch.FLAG and o.pk_change is PkChange.SPLIT
    assert o.replace(name="x").name == "x" and o.replace(name="x").pk_change is PkChange.SPLIT


def test_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ChangeOptions().name = "x"


@pytest.mark.parametrize(("kw", "says"), [
    ({"on_mismatch": "ignore"}, "on_mismatch must be 'raise' or 'flag'"),
    ({"pk_change": "merge"}, "pk_change must be 'update' or 'split'"),
    ({"decode": {"json_as": "text"}}, "decode must be an Options"),
    ({"filters": ()}, "filters must be a Filters"),
    ({"transactions": "yes"}, "transactions must be True or False"),
    ({"schema_position": "a:b"}, "not a binlog position"),
    ({"span": (None,)}, "span must be (start, stop)"),
])
def test_bad_values_are_config_errors(kw, says):
    with pytest.raises(ConfigError, match=says.replace("(", r"\(").replace(")", r"\)")):
        ChangeOptions(**kw)


def test_reader_takes_only_a_change_options(shared_path):
    path = shared_path / "binlogs/maxwell/binlog.000004"
    with pytest.raises(ConfigError, match="must be a ChangeOptions"):
        ChangeReader(open_source(path), Options())
    with pytest.raises(ConfigError, match="record_ddl=False"):
        ChangeReader(open_source(path), ChangeOptions(record_ddl=False))
    reader = ChangeReader(open_source(path), ChangeOptions(filters=Filters(tables=("nothing",))))
    assert reader.config.filters.tables == ("nothing",)


# -- span, rows and queries apply to an opened source: the reader asks the source for them ---------

SHOP = Path(__file__).resolve().parent.parent / "data" / "shop-bin.000001"
BASELINE = SHOP.parent / "shop-baseline.sql"


def _changes(options: ChangeOptions, source=None) -> list:
    source = source if source is not None else open_source(str(SHOP))
    return list(ChangeReader(source, options, schema=BASELINE.read_text()).changes())


def test_a_reader_takes_only_a_source():
    with pytest.raises(ConfigError, match="reads an EventSource"):
        ChangeReader([str(SHOP)])


def test_span_applies_to_an_opened_source():
    every = [c for c in _changes(ChangeOptions()) if isinstance(c, RowChange)]
    xid_end = [ev for ev in BinlogReader(SHOP) if isinstance(ev, XidEvent)][1].next_pos
    source = open_source(str(SHOP))
    part = [c for c in _changes(ChangeOptions(span=((SHOP.name, xid_end), None)), source) if isinstance(c, RowChange)]
    assert part and part == [c for c in every if c.source.pos >= xid_end]
    assert source.start.pos == xid_end
    stop = part[1].source.pos
    head = [c for c in _changes(ChangeOptions(span=(None, (SHOP.name, stop)))) if isinstance(c, RowChange)]
    assert head == [c for c in every if c.source.pos < stop]


def test_rows_false_applies_to_an_opened_source():
    source = open_source(str(SHOP))
    got = _changes(ChangeOptions(rows=False), source)
    assert got and not any(isinstance(c, RowChange) for c in got) and any(isinstance(c, SchemaChange) for c in got)
    # (the rows events were not even decoded: the source read the history's types only)
    assert source.reader.only_types is not None and source.reader.events_read < len(list(BinlogReader(SHOP)))


def test_queries_apply_to_an_opened_source():
    with_texts = [c for c in _changes(ChangeOptions()) if isinstance(c, RowChange)]
    without = [c for c in _changes(ChangeOptions(queries=False)) if isinstance(c, RowChange)]
    assert any(c.source.query for c in with_texts)
    assert len(without) == len(with_texts) and all(c.source.query is None for c in without)
