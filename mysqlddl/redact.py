"""Passwords kept out of everything mysqlddl prints or stores (messages, exceptions and their
``args``, ``repr()`` of configuration objects, ``mysqlddl status``, the stats file, the checkpoint
store, logs): one masking for every URI kind.

- :func:`mask_uri`: a URI for display, its password replaced by ``***``. The userinfo of any
  ``scheme://`` URI (RFC 3986 section 3.2.1, ``user:password@``: mysql://, postgresql://, amqp://,
  redis:// with ``:password@``) and the values of the query keys that carry secrets (libpq's
  ``password`` and ``sslpassword``, redis-py's ``password``, ...). A NATS URL's lone userinfo is a
  token (``nats://TOKEN@host``, nats-server "Token Authentication"): masked whole. A libpq
  ``key=value`` connection string keeps only the keys that name the target.
- :func:`mask_text`: every URI in a free text masked as above, every ``password=VALUE`` masked, and
  every secret met so far (:func:`remember_secret`: a password from ``MYSQL_PWD``, an option file, a
  prompt, ``PGPASSWORD``, a URI) replaced in its raw and percent-encoded forms, wherever it shows
  (a message quoting a URI the URI grammar cannot split, a server echoing what it was sent).

The masking is structural (what the URI's grammar says is secret) and by value (what was met):
either alone misses a case the other catches. Values shorter than :data:`MIN_SECRET` are masked
structurally only (replacing every ``ab`` of a message would make it unreadable), and those shorter
than :data:`WORD_FREE` only where they stand as a word of their own (a password ``admin`` is not
masked inside "administrator").

This module imports nothing of mysqlddl: :mod:`mysqlddl.errors` masks every error through it.
"""

from __future__ import annotations

import dataclasses
import re
from urllib.parse import quote, quote_plus, unquote

MASK = "***"
#: Shortest secret masked by its value (shorter ones: by the URI grammar only).
MIN_SECRET = 4
#: Secrets this long or longer are masked wherever they show, even inside a longer word; shorter
#: ones only as a word of their own (:func:`_value_pattern`).
WORD_FREE = 12
#: Query keys whose value is a secret (normalised: lower case, ``-`` for ``_``): libpq's
#: ``password`` / ``sslpassword`` (PostgreSQL manual, "Parameter Key Words"), redis-py's ``password``,
#: and the common spellings of a token.
SECRET_KEYS = frozenset(("password", "passwd", "pwd", "pass", "sslpassword", "token", "auth-token",
                         "access-token", "secret"))
#: Schemes whose userinfo without a ``:`` is itself a secret (a NATS token: ``nats://TOKEN@host``).
TOKEN_SCHEMES = frozenset(("nats", "tls"))
#: libpq ``key=value`` connection-string keys shown in messages (the target, never a credential).
CONNINFO_SHOWN = ("host", "hostaddr", "port", "dbname", "user")

_secrets: set[str] = set()
_pattern: re.Pattern | None = None

# a URI in a text: scheme "://" and what follows up to a space or a quote (a repr's delimiter)
_URI = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*)://([^\s'\"<>`]*)")
# ``key=value`` with a secret key, in a text or a query (value up to a separator)
_KEYVAL = re.compile(r"(?i)(?<![a-z0-9_\-])((?:" + "|".join(sorted(k.replace("-", "[-_]") for k in SECRET_KEYS))
                     + r")\s*=\s*)('[^']*'|\"[^\"]*\"|[^\s&;,'\")]*)")
_CONNINFO = re.compile(r"\s*[A-Za-z_]\w*\s*=")


def remember_secret(value: str | bytes | None) -> None:
    """From now on ``value`` (and its percent-encoded and -decoded forms) is masked in every text
    :func:`mask_text` sees. None, empty and short values are ignored (see :data:`MIN_SECRET`)."""
    global _pattern
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not value:
        return
    forms = {value, unquote(value), quote(value, safe=""), quote(value), quote_plus(value, safe="")}
    new = {f for f in forms if len(f) >= MIN_SECRET} - _secrets
    if new:
        _secrets.update(new)
        # (longest first: a form that contains another is replaced whole)
        _pattern = re.compile("|".join(_value_pattern(s) for s in sorted(_secrets, key=len, reverse=True)))


def _value_pattern(secret: str) -> str:
    """The regex that finds ``secret`` in a text. A short one only as a word of its own (not inside
    a longer run of letters and digits): the password ``repl`` must not turn every "replication"
    of every message into "***ication"; where it shows as itself (after ``:``, before ``@``, in
    quotes, alone) it is still found. One of :data:`WORD_FREE` characters or more is found anywhere."""
    body = re.escape(secret)
    if len(secret) >= WORD_FREE:
        return body
    return r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])"


def uri_secrets(uri: str) -> list[str]:
    """The secrets a URI carries (its userinfo password, a token, secret query values), raw."""
    found = []
    head = _authority(uri)
    if head is not None:
        scheme, userinfo = head[0], head[1]
        if userinfo is not None:
            user, colon, password = userinfo.partition(":")
            if colon:
                found.append(password)
            elif scheme in TOKEN_SCHEMES:
                found.append(user)
    for m in _KEYVAL.finditer(uri):
        found.append(m.group(2).strip("'\""))
    return [s for s in found if s]


def remember_uri(uri: str | None) -> None:
    """:func:`remember_secret` for each secret of ``uri`` (a source or sink URI as it was given)."""
    if isinstance(uri, str):
        for s in uri_secrets(uri):
            remember_secret(s)


def _authority(uri: str):
    """(scheme, userinfo or None, index where userinfo starts, index of its ``@``) of a
    ``scheme://`` URI; None for anything else. The userinfo ends at the last ``@`` before the
    query (RFC 3986 section 3.2: the authority ends at ``/``, ``?`` or ``#``; a password holding
    a raw ``/`` is still taken whole, as the user meant it)."""
    scheme, sep, rest = uri.partition("://")
    if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]*", scheme):
        return None
    start = len(scheme) + 3
    if rest.startswith("/"):
        return scheme.lower(), None, start, start
    end = len(rest)
    for c in "?#":
        i = rest.find(c)
        if i != -1:
            end = min(end, i)
    at = rest.rfind("@", 0, end)
    if at == -1:
        return scheme.lower(), None, start, start
    return scheme.lower(), rest[:at], start, start + at


def mask_uri(uri: str) -> str:
    """``uri`` for display: its password (or token) and secret query values replaced by ``***``;
    a libpq ``key=value`` string reduced to the keys that name the target. Anything else (a path)
    is returned as it is, but for secrets met before (:func:`mask_text`)."""
    if not isinstance(uri, str):
        return uri
    head = _authority(uri)
    if head is None:
        if _CONNINFO.match(uri) and "://" not in uri:
            keep = [kv for kv in uri.split() if kv.split("=", 1)[0] in CONNINFO_SHOWN]
            return " ".join(keep) or "(connection string)"
        return _by_value(uri)
    scheme, userinfo, start, at = head
    if userinfo is not None:
        user, colon, _ = userinfo.partition(":")
        if colon:
            uri = f"{uri[:start]}{user}:{MASK}{uri[at:]}"
        elif scheme in TOKEN_SCHEMES:
            uri = f"{uri[:start]}{MASK}{uri[at:]}"
    return _by_value(_KEYVAL.sub(lambda m: m.group(1) + MASK, uri))


def _by_value(text: str) -> str:
    return _pattern.sub(MASK, text) if _pattern is not None else text


def mask_text(text: str) -> str:
    """``text`` (a message, a repr) with every URI masked (:func:`mask_uri`), every secret
    ``key=value`` masked, and every secret met so far replaced by ``***``."""
    if not isinstance(text, str):
        return text
    if "://" in text:
        text = _URI.sub(lambda m: mask_uri(m.group(0)), text)
    if "=" in text:
        text = _KEYVAL.sub(lambda m: m.group(1) + MASK, text)
    return _by_value(text)


def masked_repr(obj) -> str:
    """A dataclass's ``repr()`` with its secrets masked (``__repr__ = masked_repr`` in the class,
    declared with ``repr=False``)."""
    fields = ", ".join(f"{f.name}={getattr(obj, f.name)!r}" for f in dataclasses.fields(obj) if f.repr)
    return mask_text(f"{type(obj).__qualname__}({fields})")


__all__ = ["MASK", "MIN_SECRET", "SECRET_KEYS", "TOKEN_SCHEMES", "mask_text", "mask_uri", "masked_repr",
           "remember_secret", "remember_uri", "uri_secrets"]
