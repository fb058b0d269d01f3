"""The stats: a batch counted once, when committed; the derived figures."""

from __future__ import annotations

from mysqlddl.pipeline.stats import Stats


def test_counts_go_into_the_totals_only_when_committed():
    st = Stats()
    st.rows("a.t", "c", 3)
    st.boundary(100, ddl=False)
    st.discard_batch()                       # an error: the batch was not committed
    assert st.totals()["dml"] == {} and st.transactions == 0
    st.rows("a.t", "c", 3)
    st.rows("a.t", "u", 1)
    st.boundary(100, ddl=False)
    st.boundary(101, ddl=True)
    st.skip()
    totals = st.committed()
    assert totals["dml"] == {"a.t": {"c": 3, "u": 1}} and totals["transactions"] == 1 and totals["ddl"] == 1
    assert totals["skipped"] == 1 and totals["batches"] == 1
    b = totals["recent"][0]
    assert b["transactions"] == 2 and b["source_committed"] == 101 and b["read"] <= b["sink_committed"]
    # carried in the checkpoint, they come back
    again = Stats(totals)
    again.rows("b.u", "d", 2)
    again.boundary(102, ddl=False)
    rep = Stats(again.committed()).report()
    assert rep["dml_by_op"] == {"c": 3, "d": 2, "u": 1} and rep["dml_rows"] == 6
    assert rep["transactions"] == 2 and rep["batches"] == 2 and rep["avg_batch_size"] == 1.5
    assert rep["lag_s"] > 0


def test_snapshot_reads_and_rows_without_a_schema_are_counted_apart():
    # op "r" rows are an initial snapshot's, not the binlog's DML (as `mysqlddl changes` counts them);
    # rows written without a table definition are counted per table, and carried in the checkpoint
    st = Stats()
    st.rows("a.t", "r", 4)
    st.rows("a.t", "c", 1)
    st.rows_without_schema("b.u", 2)
    st.boundary(100, ddl=False)
    rep = Stats(st.committed()).report()
    assert (rep["dml_rows"], rep["snapshot_rows"]) == (1, 4)
    assert rep["rows_without_schema"] == {"b.u": 2}
