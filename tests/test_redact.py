"""mysqlddl.redact: one masking for every URI kind, in messages, reprs and exceptions (issue #30, item 9).

The end-to-end check (every path a password enters, real servers, every output searched) is
tests/cli/test_secrets.py; these are the masking rules themselves."""

from __future__ import annotations

import pytest

from mysqlddl import redact
from mysqlddl.errors import PipelineError, SourceUriError
from mysqlddl.pipeline import config_from_dict
from mysqlddl.redact import mask_text, mask_uri, remember_secret
from mysqlddl.sources.uri import parse_uri


@pytest.fixture(autouse=True)
def no_secrets_met(monkeypatch):
    """The rules on their own: no secret met by the tests run before in this process (the lab's
    account is repl/repl: its password would mask the user ``repl`` in the URIs below)."""
    monkeypatch.setattr(redact, "_secrets", set())
    monkeypatch.setattr(redact, "_pattern", None)


@pytest.mark.parametrize("uri, shown", [
    ("mysql://repl:Pw-1x@127.0.0.1:3306/?server-id=1", "mysql://repl:***@127.0.0.1:3306/?server-id=1"),
    ("mysql://repl:My%53ecret@h/?server-id=1", "mysql://repl:***@h/?server-id=1"),
    ("postgresql://u:p%40ss@h:5432/db", "postgresql://u:***@h:5432/db"),
    ("postgresql://u@h/db?sslmode=require&password=abcd", "postgresql://u@h/db?sslmode=require&password=***"),
    ("amqp://guest:guestpw@h:5672/vhost", "amqp://guest:***@h:5672/vhost"),
    ("redis://:redispw@h:6379/0", "redis://:***@h:6379/0"),
    ("redis://h:6379/0?password=redispw", "redis://h:6379/0?password=***"),
    ("nats://s3cr3t-token@h:4222", "nats://***@h:4222"),          # (a lone NATS userinfo is a token)
    ("nats://u:natspw@h:4222", "nats://u:***@h:4222"),
    ("mysql://repl:pa/ss@h/?server-id=1", "mysql://repl:***@h/?server-id=1"),   # (a raw '/' in it: still whole)
    ("host=h port=5 password=x dbname=d", "host=h port=5 dbname=d"),
    # nothing secret: unchanged
    ("mysql://repl@h:3306/?server-id=1&ssl-ca=/etc/a@b.pem", "mysql://repl@h:3306/?server-id=1&ssl-ca=/etc/a@b.pem"),
    ("jsonl:///data/a@b/", "jsonl:///data/a@b/"),
    ("/var/lib/mysql/binlog.000001", "/var/lib/mysql/binlog.000001"),
])
def test_mask_uri(uri, shown):
    assert mask_uri(uri) == shown


def test_mask_text_masks_uris_and_remembered_secrets():
    text = "bad 'mysql://a:b1@c/?server-id=1' and \"postgresql://u:v2@w/x\"; password=zz9 bypass=keep"
    assert mask_text(text) == ("bad 'mysql://a:***@c/?server-id=1' and \"postgresql://u:***@w/x\"; "
                               "password=*** bypass=keep")
    remember_secret("Remembered/Pw")
    assert mask_text("got Remembered/Pw and Remembered%2FPw") == "got *** and ***"


def test_a_short_secret_is_masked_as_a_word_of_its_own_only():
    remember_secret("repl")
    assert mask_text("replication as repl, 'repl', u:repl@h") == "replication as ***, '***', u:***@h"
    remember_secret("LongerSecret99")          # (WORD_FREE characters or more: anywhere)
    assert mask_text("xLongerSecret99y") == "x***y"


@pytest.mark.parametrize("given", ["MyS3cretURIpw", "My%53ecretURIpw"])
def test_the_refusing_error_never_holds_the_password(given):
    with pytest.raises(SourceUriError) as e:
        parse_uri(f"mysql://repl:{given}@127.0.0.1:3306/?server-id=7")
    text = f"{e.value} {e.value.args} {e.value.message} {e.value!r}"
    assert "password in the URI" in text and "mysql://repl:***@127.0.0.1:3306" in text
    for secret in (given, "MyS3cretURIpw", "MySecretURIpw"):
        assert secret not in text


def test_an_error_built_anywhere_is_masked():
    e = PipelineError("the source is mysql://u:QuotedPw9@h/?server-id=1", path="postgresql://p:QuotedPw8@h/db")
    assert "QuotedPw" not in f"{e} {e.args} {e.path}"


def test_config_repr_masks_the_uris():
    cfg = config_from_dict({"source": {"uri": "mysql://repl@h/?server-id=1"},
                            "sink": {"uri": "postgresql://u:ReprPw-42@h:5432/db?password=ReprPw-43"}})
    for text in (repr(cfg), repr(cfg.sink), str(cfg)):
        assert "ReprPw" not in text and "postgresql://u:***@h:5432/db" in text
    assert cfg.sink.uri == "postgresql://u:ReprPw-42@h:5432/db?password=ReprPw-43"    # (the value itself is kept)
