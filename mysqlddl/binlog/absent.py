"""The ABSENT sentinel: a column that a row image does not hold.

A MINIMAL or NOBLOB row image (``binlog_row_image``; sql/log_event.cc
``Rows_log_event::write_data_body``) lists in its columns-present bitmap only some of the table's
columns; a decoded row keeps a tuple entry per table column, and the others are ABSENT, which is
not NULL. Its own module, below ``rows`` and both row decoders (the compiled core and
``_twin``), so that each of them can import it without importing the others.
"""

from __future__ import annotations


class _Absent:
    """The type of :data:`ABSENT` (one instance, also after pickling)."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self):
        return (_Absent, ())

    def __bool__(self) -> bool:
        return False


#: A column not in the row image's columns-present bitmap (not NULL).
ABSENT = _Absent()

__all__ = ["ABSENT"]
