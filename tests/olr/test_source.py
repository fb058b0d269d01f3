"""The OLR source (mysqlddl/olr/source.py): its files in OLR's order, its identity and the
fingerprint of the message at a resume position, and its documents from a position."""

from __future__ import annotations

import json

import pytest

from mysqlddl.errors import CheckpointError, OlrJsonError, PipelineError
from mysqlddl.olr.source import OlrSource, olr_source
from mysqlddl.options import Options
from mysqlddl.positions import OlrResumePosition


def _msg(c_scn: int, c_idx: int, op: str, xid: str = "1.2.3", db: str | None = "FREE") -> str:
    doc = {"scn": c_scn, "c_scn": c_scn, "c_idx": c_idx, "xid": xid, "payload": [{"op": op}]}
    if db is not None:
        doc["db"] = db
    return json.dumps(doc) + "\n"


@pytest.fixture
def out_dir(tmp_path):
    d = tmp_path / "olr"
    d.mkdir()
    (d / "olr-10.json").write_text(_msg(30, 1, "begin", "c") + _msg(30, 2, "commit", "c"))
    (d / "olr-2.json").write_text(_msg(20, 1, "begin", "b") + _msg(20, 2, "commit", "b"))
    (d / "olr-1.json").write_text(_msg(10, 1, "begin", "a") + _msg(10, 2, "commit", "a"))
    (d / ".olr-3.json.swp").write_text("not OLR")
    return d


def _resume(path, index: int) -> OlrResumePosition:
    """The resume position after the ``index``-th document of ``path`` (as the reader builds it)."""
    docs = list(OlrSource(path).events())
    d = docs[index]
    return OlrResumePosition(d.value["c_scn"], d.value["c_idx"], path.name, d.value["scn"], int(path.stem[4:]),
                             d.end, d.offset, d.value["xid"])


def test_a_directory_is_read_in_the_order_of_the_numbers_in_the_names(out_dir):
    src = olr_source(f"olr://{out_dir}/")
    assert src.kind == "olr"
    assert [f.name for f in src.output_files()] == ["olr-1.json", "olr-2.json", "olr-10.json"]
    docs = list(src.events())
    assert [d.value["xid"] for d in docs] == ["a", "a", "b", "b", "c", "c"]
    assert [f.name for f in src.files] == ["olr-1.json", "olr-2.json", "olr-10.json"]      # (the files read)


def test_events_go_on_just_past_a_resume_position(out_dir):
    start = _resume(out_dir / "olr-2.json", 0)
    src = OlrSource(out_dir)
    docs = list(src.events(start))
    assert [(d.value["xid"], d.value["payload"][0]["op"]) for d in docs] == [("b", "commit"), ("c", "begin"),
                                                                          ("c", "commit")]
    assert [f.name for f in src.files] == ["olr-2.json", "olr-10.json"]


def test_identity_and_the_fingerprint_of_the_message_at_the_position(out_dir):
    src = OlrSource(out_dir)
    assert src.identity(None) == ("olr:db=FREE;name=olr", None)
    start = _resume(out_dir / "olr-2.json", 1)
    assert src.identity(start) == ("olr:db=FREE;name=olr", start.fingerprint)
    moved = OlrResumePosition(start.c_scn, start.c_idx, start.file, start.scn, start.file_seq, start.pos + 1,
                              start.message + 1, start.xid)
    assert src.identity(moved)[1] == f"no message at byte {moved.message}"
    other = OlrResumePosition(99, 1, start.file, 99, start.file_seq, start.pos, start.message, "x")
    assert src.identity(other)[1] == "c_scn 20 c_idx 2 xid b" != other.fingerprint
    # a message that names no database: "?"
    one = out_dir.parent / "one"
    one.mkdir()
    (one / "out.json").write_text(_msg(1, 1, "begin", db=None))
    assert OlrSource(one / "out.json").identity(None) == ("olr:db=?;name=out", None)


def test_a_checkpoint_file_not_in_the_source_and_an_empty_source_are_refused(out_dir, tmp_path):
    gone = OlrResumePosition(1, 1, "olr-7.json", 1, 7, 10, 0, "a")
    with pytest.raises(CheckpointError, match="olr-7.json is not in the source"):
        OlrSource(out_dir).identity(gone)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(PipelineError, match="no OLR output file in"):
        list(OlrSource(empty).events())
    with pytest.raises(PipelineError, match="no OLR output file or directory"):
        OlrSource(tmp_path / "nothing").output_files()


def test_json_errors_raise_or_are_kept_for_the_reader_by_the_error_policy(tmp_path):
    f = tmp_path / "olr-1.json"
    f.write_text(_msg(1, 1, "begin") + "{not json\n" + _msg(1, 2, "commit"))
    with pytest.raises(OlrJsonError):
        list(OlrSource(f).events())
    src = OlrSource(f, Options(error_policy="skip"))
    assert [d.value["c_idx"] for d in src.events()] == [1, 2]
    assert [e.line for e in src.errors] == [2]


def test_a_followed_output_ends_when_asked_and_waits_idle(out_dir):
    calls = []
    src = OlrSource(out_dir, follow=True, poll=0.01, idle=lambda: calls.append("idle"), stop=lambda: True)
    with src:
        docs = list(src.events())
    assert len(docs) == 6 and calls == ["idle"]
