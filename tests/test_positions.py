"""mysqlddl.positions: the file-number rule, the two position types, and the schema history
holding, saving and reloading either."""

from __future__ import annotations

import json

import pytest

from mysqlddl.commands import CreateDatabase
from mysqlddl.errors import ConfigError
from mysqlddl.history import SchemaHistory
from mysqlddl.options import Options
from mysqlddl.positions import NO_FILE_SEQ, BinlogPosition, OlrPosition, file_seq, split_file_name

# (name, (basename, sequence number) or None): what a server writes (log_bin_basename plus a
# zero-padded counter, MYSQL_BIN_LOG::generate_new_name) and what it does not.
NAMES = [
    ("mysql-bin.000042", ("mysql-bin", 42)),
    ("/var/lib/mysql/binlog.000001", ("binlog", 1)),
    ("mysql-bin.1000000", ("mysql-bin", 1000000)),      # past six digits the counter just grows
    ("relay-bin.000003", ("relay-bin", 3)),              # relay logs are numbered the same way
    ("host.name.with.dots.000007", ("host.name.with.dots", 7)),
    ("binlog.index", None),                              # the index file
    ("mysql-bin.checksum-crc32", None),                  # a fixture copied under another name
    ("mysql-bin.000042.gz", None),                       # an archive: the number is not the suffix
    ("no-suffix", None),
]


@pytest.mark.parametrize(("name", "parts"), NAMES)
def test_one_file_number_rule(name, parts):
    assert split_file_name(name) == parts
    assert file_seq(name) == (parts[1] if parts else NO_FILE_SEQ)
    assert BinlogPosition.in_file(name, 4).key == (file_seq(name), 4)
    if parts is None:
        with pytest.raises(ConfigError, match="numeric suffix"):
            BinlogPosition.of(name, 4)
    else:
        assert BinlogPosition.of(name, 4).key == (parts[1], 4)


def test_binlog_positions_compare_by_key_only():
    a = BinlogPosition.in_file("/x/bin.000009", 900)
    b = BinlogPosition.of("bin.000010", 4, gtid="0-1-5")
    assert a < b and b > a and a <= a and b >= a
    assert b == BinlogPosition(10, 4) and hash(b) == hash(BinlogPosition(10, 4, "other.000010"))
    assert str(a) == "/x/bin.000009:900" and str(BinlogPosition(3, 7)) == "3:7"
    # an unnumbered file sorts before every numbered one
    assert BinlogPosition.in_file("fixture", 10**9) < BinlogPosition.in_file("bin.000001", 4)


def test_olr_position_has_its_own_fields_and_key():
    p = OlrPosition(2930820, 3, "olr.json", scn=2930830)
    assert (p.c_scn, p.c_idx, p.key) == (2930820, 3, (2930820, 3))
    assert p == OlrPosition(2930820, 3) and p < OlrPosition(2930820, 4) < OlrPosition(2930821, 0)
    assert str(p) == "c_scn 2930820 c_idx 3"
    # a binlog offset and an OLR checkpoint are not comparable
    assert p != BinlogPosition(2930820, 3)
    with pytest.raises(TypeError):
        _ = p < BinlogPosition(2930820, 3)


def _ddl_history(pos):
    h = SchemaHistory(Options(dialect="oracle"))
    h.record(pos, None, "CREATE DATABASE X", [CreateDatabase("X")])
    return h


def test_history_saves_a_binlog_position_untagged(tmp_path):
    h = SchemaHistory(Options(dialect="mariadb"))
    h.record(BinlogPosition.of("mariadb-bin.000002", 50), None, "CREATE DATABASE x", [CreateDatabase("x")])
    h.save(tmp_path / "h.jsonl")
    row = json.loads((tmp_path / "h.jsonl").read_text().splitlines()[1])
    assert row["position"] == {"file": "mariadb-bin.000002", "file_seq": 2, "pos": 50}
    assert type(SchemaHistory.load(tmp_path / "h.jsonl").records[0].position) is BinlogPosition


def test_history_saves_and_reloads_an_olr_position(tmp_path):
    h = _ddl_history(OlrPosition(100, 2, "o.json", scn=120))
    h.save(tmp_path / "h.jsonl")
    row = json.loads((tmp_path / "h.jsonl").read_text().splitlines()[1])
    assert row["position"] == {"@type": "OlrPosition", "c_scn": 100, "c_idx": 2, "file": "o.json", "scn": 120}
    pos = SchemaHistory.load(tmp_path / "h.jsonl").records[0].position
    assert pos == OlrPosition(100, 2) and (pos.file, pos.scn) == ("o.json", 120)


def test_history_saved_before_olr_positions_had_their_own_fields_reloads(tmp_path):
    """Until the position types were split, OlrPosition subclassed BinlogPosition and kept
    (c_scn, c_idx) in its file_seq/pos fields: such files still load."""
    h = _ddl_history(OlrPosition(100, 2, "o.json"))
    h.save(tmp_path / "h.jsonl")
    head, row = (json.loads(x) for x in (tmp_path / "h.jsonl").read_text().splitlines())
    row["position"] = {"@type": "OlrPosition", "file_seq": 100, "pos": 2, "file": "o.json"}
    (tmp_path / "old.jsonl").write_text(json.dumps(head) + "\n" + json.dumps(row) + "\n")
    h2 = SchemaHistory.load(tmp_path / "old.jsonl")
    pos = h2.records[0].position
    assert type(pos) is OlrPosition and (pos.c_scn, pos.c_idx, pos.file) == (100, 2, "o.json")
    assert "X" in h2.catalog_at(OlrPosition(100, 2)).databases
    assert "X" not in h2.catalog_at(OlrPosition(100, 1)).databases
