"""The source contract (mysqlddl.sources.base) as each source kind keeps it: identity, the events
from a start (a FORMAT_DESCRIPTION first), what the reader wants decoded, the hooks; and the one
registry (open_source) that opens them, the OLR entry loaded by name. (A server source keeps it
against a live server: tests/sources/server/test_server.py and the pipeline's server tests.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mysqlddl.binlog.events import FormatDescriptionEvent, XidEvent
from mysqlddl.binlog.events.registry import without_statement_texts
from mysqlddl.binlog.reader import BinlogReader
from mysqlddl.errors import CheckpointError, ConfigError
from mysqlddl.positions import BinlogPosition
from mysqlddl.sources import OPENERS, EventSource, FileSource, ReplaySource, SourceOptions, open_source
from mysqlddl.sources.replay import TapSource

DATA = Path(__file__).resolve().parent.parent / "data"
SHOP = DATA / "shop-bin.000001"
OLR = "corpora/olr-json/rophy-olr-fork-prebuilt/basic-crud/output.json"


def _sig(events):
    return [(e.pos, e.type_name) for e in events]


def _xid_end(n: int) -> int:
    return [ev for ev in BinlogReader(SHOP) if isinstance(ev, XidEvent)][n].next_pos


def test_files_identity_names_the_server_the_version_and_the_base_name(tmp_path):
    src = open_source(str(SHOP))
    assert src.kind == "binlog" and isinstance(src, FileSource)
    ident, stamp = src.identity(None)
    assert ident == "file:server_id=1;version=10.11.19-MariaDB-0+deb12u1-log;basename=shop-bin"
    fde = next(iter(BinlogReader(SHOP)))
    assert stamp == fde.header.timestamp
    assert src.identity(BinlogPosition(1, _xid_end(0), SHOP.name)) == (ident, stamp)
    with pytest.raises(CheckpointError, match="not in the source"):
        src.identity(BinlogPosition(2, 4, "shop-bin.000002"))


def test_files_events_from_a_start_come_after_the_fde_of_its_file():
    at = _xid_end(1)
    src = open_source(str(SHOP))
    evs = list(src.events(BinlogPosition(1, at, SHOP.name)))
    assert isinstance(evs[0], FormatDescriptionEvent) and evs[0].pos == 4
    assert _sig(evs[1:]) == _sig(BinlogReader(SHOP, start=at))
    assert src.start.pos == at and src.position.pos == SHOP.stat().st_size
    # None: the configured start (SourceOptions.start), else the beginning
    configured = open_source(str(SHOP), SourceOptions(start=f"{SHOP.name}:{at}"))
    assert _sig(configured.events()) == _sig(evs)
    assert _sig(open_source(str(SHOP))) == _sig(BinlogReader(SHOP))


def test_files_decode_what_the_reader_asks():
    src = open_source(str(SHOP))
    only = list(src.events(only_types=("XID", "QUERY")))
    assert {e.type_name for e in only} == {"FORMAT_DESCRIPTION", "XID", "QUERY"}
    texts = [e for e in open_source(str(SHOP)).events() if e.type_name == "MARIADB_ANNOTATE_ROWS"]
    opaque = [e for e in open_source(str(SHOP)).events(registry=without_statement_texts())
              if e.type_name == "MARIADB_ANNOTATE_ROWS"]
    assert texts and all(e.query for e in texts)
    assert len(opaque) == len(texts) and not any(hasattr(e, "query") for e in opaque)
    stop = _xid_end(0)
    assert max(e.pos for e in open_source(str(SHOP)).events(stop=stop)) < stop


def test_a_followed_directory_ends_when_stop_requested_or_on_wait_says(tmp_path):
    shutil.copyfile(SHOP, tmp_path / "shop-bin.000001")
    waits, got = [], []
    src = open_source(str(tmp_path), SourceOptions(follow=True, poll=0.01), on_wait=lambda: waits.append(1),
                      stop_requested=lambda: len(got) >= 3)
    for ev in src:
        got.append(ev)
    assert len(got) == 3 and waits == []          # (ended between events, without waiting)
    src = open_source(str(tmp_path), SourceOptions(follow=True, poll=0.01),
                      on_wait=lambda: waits.append(1) or len(waits) >= 2)
    assert _sig(src) == _sig(BinlogReader(SHOP)) and len(waits) == 2
    with pytest.raises(ConfigError, match="never stops"):
        src.events(stop=100)


def test_replayed_events_apply_the_types_and_registry_asked():
    evs = list(BinlogReader(SHOP))
    fde = evs[0]
    src = ReplaySource(iter(evs), files=[SHOP], fde=fde)
    assert src.server_version == fde.server_version and src.identity(None) == ("replay", None)
    kept = list(src.events(only_types=("QUERY",)))
    assert {e.type_name for e in kept} == {"FORMAT_DESCRIPTION", "QUERY"}
    no_texts = list(ReplaySource(iter(evs), files=[SHOP]).events(registry=without_statement_texts()))
    assert "MARIADB_ANNOTATE_ROWS" not in {e.type_name for e in no_texts} and len(no_texts) > 20
    with pytest.raises(ConfigError, match="no position"):
        ReplaySource(iter(evs)).events(BinlogPosition(1, 4, SHOP.name))


def test_a_tap_sees_every_event_the_reader_takes():
    seen = []

    def tap(events):
        for ev in events:
            seen.append(ev.pos)
            yield ev

    src = TapSource(open_source(str(SHOP)), tap)
    got = [e.pos for e in src.events(only_types=("XID",))]
    assert got == seen and len(got) == 6 and src.identity(None) == open_source(str(SHOP)).identity(None)


def test_the_registry_opens_olr_output_by_name_and_returns_sources_as_they_are(shared_path):
    assert isinstance(OPENERS["olr"], str) or callable(OPENERS["olr"])
    src = open_source(f"olr://{shared_path / OLR}")
    assert src.kind == "olr"
    ident, fingerprint = src.identity(None)
    assert ident.startswith("olr:db=") and fingerprint is None
    files = open_source([str(SHOP)])
    assert open_source(files) is files and isinstance(files, EventSource)
    with pytest.raises(ConfigError, match="no source for scheme 'kafka'"):
        open_source("kafka://x")


def test_sources_do_not_import_olr_or_the_server_code_for_files(tmp_path):
    # (the registry names them by string: loaded on first use; olr sits above sources)
    code = ("import sys; from mysqlddl.sources import open_source; list(open_source(sys.argv[1])); "
            "print(sorted(m for m in sys.modules if m.startswith(('mysqlddl.olr', 'mysqlddl.sources.server', "
            "'pymysql'))))")
    out = subprocess.run([sys.executable, "-c", code, str(SHOP)], capture_output=True, text=True, cwd=tmp_path,
                         check=True).stdout
    assert out.strip() == "[]"
