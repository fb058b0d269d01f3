"""An XA transaction prepared, another transaction committed meanwhile, then the XA COMMIT: the
reader holds the XA rows from PREPARE to COMMIT, so no checkpoint may be written in between (a
restart from it would never deliver them). Run on the lab server, the file cut right before the
XA COMMIT, then the whole file: the output equals one run over the whole file."""

from __future__ import annotations

import shutil

from mysqlddl.binlog.events import QueryEvent, XaPrepareEvent
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.pipeline import run_pipeline


def test_no_checkpoint_while_an_xa_transaction_is_prepared(lab_server, tmp_path, pipeline_file, read_segments):
    srv = lab_server
    srv.execute("CREATE DATABASE IF NOT EXISTS xat", "CREATE TABLE IF NOT EXISTS xat.t (id INT PRIMARY KEY)")
    srv.flush_logs()
    a, b = srv.connect(), srv.connect()
    try:
        with a.cursor() as ca, b.cursor() as cb:
            ca.execute("XA START 'x1'")
            ca.execute("INSERT INTO xat.t VALUES (1), (2)")
            ca.execute("XA END 'x1'")
            ca.execute("XA PREPARE 'x1'")
            cb.execute("INSERT INTO xat.t VALUES (10)")
            b.commit()
            ca.execute("XA COMMIT 'x1'")
            cb.execute("INSERT INTO xat.t VALUES (11)")
            b.commit()
    finally:
        a.close()
        b.close()
    path, _ = srv.current_binlog()
    srv.flush_logs()
    events = list(BinlogReader(path))
    prepare = next(e for e in events if isinstance(e, XaPrepareEvent))
    commit = next(e for e in events if isinstance(e, QueryEvent) and e.query.upper().startswith("XA COMMIT"))
    data = path.read_bytes()

    src = tmp_path / "src"
    src.mkdir()
    (src / path.name).write_bytes(data[:commit.pos])       # up to the XA COMMIT (excluded)
    p = pipeline_file(tmp_path / "p.toml", source=src, sink=f"jsonl://{tmp_path}/out", store=tmp_path / "s.db",
                      extra="every_transactions = 1\n")
    first = run_pipeline(p, once=True)
    # the other transaction (id 10) ended after the PREPARE: no checkpoint there
    assert first.checkpoint is None or first.checkpoint.position.pos <= prepare.pos
    shutil.copyfile(path, src / path.name)
    run_pipeline(p, once=True)

    whole = tmp_path / "whole"
    whole.mkdir()
    shutil.copyfile(path, whole / path.name)
    q = pipeline_file(tmp_path / "q.toml", source=whole, sink=f"jsonl://{tmp_path}/ref", store=tmp_path / "r.db")
    ref = run_pipeline(q, once=True)
    out = read_segments(tmp_path / "out")
    assert out == read_segments(tmp_path / "ref")
    assert out.count('"table":"t"') == 4 and ref.stats["dml"]["xat.t"] == {"c": 4}
