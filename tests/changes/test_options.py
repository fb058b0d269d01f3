"""ChangeOptions: one frozen, validated object (enums for the modes; errors are ConfigError)."""

from __future__ import annotations

import dataclasses

import pytest

from mysqlddl.changes import ChangeOptions, ChangeReader, Filters, OnMismatch, PkChange
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
