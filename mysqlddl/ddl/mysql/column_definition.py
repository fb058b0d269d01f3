"""``columnDefinition`` -> :class:`~mysqlddl.model.spec.ColumnSpec` (MySQL 8.4 manual 15.1.20
"CREATE TABLE", column_definition; MariaDB "CREATE TABLE" column options).

Both servers accept the column attributes in any order, and the grammar reads them as one loop
(``columnAttribute*``); each labelled alternative has one entry in :data:`_ATTRIBUTES`. A later
attribute overrides an earlier one of the same kind (``NULL NOT NULL`` is NOT NULL), as the servers
do.

Attributes that the model does not record are listed with ``None`` so the table stays the index of
what is handled: COLUMN_FORMAT, STORAGE, ENGINE_ATTRIBUTE, MariaDB COMPRESSED and engine-defined
attributes, WITH/WITHOUT SYSTEM VERSIONING. An inline ``REFERENCES`` is parsed and ignored by both
servers (manual 15.1.20.5: "MySQL parses but ignores inline REFERENCES specifications"), so it
produces no foreign key here either.
"""

from __future__ import annotations

import dataclasses

from ..._generated.mysql.MySqlParser import MySqlParser as P
from ...model.spec import ColumnSpec
from .data_type import data_type_spec
from .identifiers import charset_name, name
from .source import StatementSource


def _null(a, st, src):
    st["nullable"] = a.NOT() is None


def _default(a, st, src):
    st["default"] = src.text_of(a.defaultValue())


def _on_update(a, st, src):
    st["on_update"] = src.text_of(a.getChild(2))


def _auto_increment(a, st, src):
    st["auto_increment"] = True


def _primary(a, st, src):
    st["primary_key"] = True  # bare KEY in a column definition means PRIMARY KEY (manual 15.1.20)


def _unique(a, st, src):
    st["unique"] = True


def _comment(a, st, src):
    st["comment"] = src.text_of(a.textLiteral())


def _collate(a, st, src):
    st["collation"] = charset_name(a.collationName(), src)


def _charset(a, st, src):
    st["charset"] = charset_name(a.charsetClause().charsetName(), src)
    if a.BINARY() is not None:
        st["binary"] = True


def _generated(a, st, src):
    st["generated"] = src.text_of(a.expression())


def _storage_kind(a, st, src):
    st["stored"] = a.generatedStorage().VIRTUAL() is None  # STORED or MariaDB PERSISTENT


def _visible(a, st, src):
    st["visible"] = True


def _invisible(a, st, src):
    st["visible"] = False


def _srid(a, st, src):
    st["srid"] = int(a.DECIMAL_LITERAL().getText())


def _check(a, st, src):
    st["check"] = src.text_of(a.expression())
    st["check_name"] = name(a.identifier()) if a.CONSTRAINT() is not None else None
    enf = a.constraintEnforcement()
    if enf is not None:
        st["check_enforced"] = enf.NOT() is None


def _serial_default_value(a, st, src):
    # SERIAL DEFAULT VALUE = NOT NULL AUTO_INCREMENT UNIQUE (manual 13.1.1 "Numeric Data Type Syntax").
    st.update(nullable=False, auto_increment=True, unique=True)


def _row_period(a, st, src):
    st["row_period"] = "start" if a.START() is not None else "end"


def _versioning(a, st, src):
    st["versioning"] = a.WITH() is not None


_ATTRIBUTES = {
    P.NullAttrContext: _null,
    P.DefaultAttrContext: _default,
    P.OnUpdateAttrContext: _on_update,
    P.AutoIncrementAttrContext: _auto_increment,
    P.PrimaryKeyAttrContext: _primary,
    P.UniqueKeyAttrContext: _unique,
    P.CommentAttrContext: _comment,
    P.CollateAttrContext: _collate,
    P.CharsetAttrContext: _charset,
    P.GeneratedAttrContext: _generated,
    P.RowPeriodAttrContext: _row_period,
    P.StorageKindAttrContext: _storage_kind,
    P.VisibleAttrContext: _visible,
    P.InvisibleAttrContext: _invisible,
    P.SridAttrContext: _srid,
    P.CheckAttrContext: _check,
    P.SerialDefaultValueAttrContext: _serial_default_value,
    # not recorded by the model (see the module docstring)
    P.ColumnFormatAttrContext: None,
    P.StorageAttrContext: None,
    P.ReferencesAttrContext: None,
    P.EngineAttrContext: None,
    P.CompressedAttrContext: None,
    P.VersioningAttrContext: _versioning,
    P.EngineDefinedAttrContext: None,
}

_TYPE_FIELDS = ("charset", "collation", "binary")


def column_spec(ctx: P.ColumnDefinitionContext, src: StatementSource) -> ColumnSpec:
    """The column definition as written."""
    dtype = data_type_spec(ctx.dataType(), src)
    st: dict = {}
    for a in ctx.columnAttribute():
        handler = src.handler(_ATTRIBUTES, a, "column attribute")
        if handler is not None:
            handler(a, st, src)
    tkw = {k: st.pop(k) for k in _TYPE_FIELDS if k in st}
    if tkw:
        dtype = dataclasses.replace(dtype, **tkw)
    return ColumnSpec(name(ctx.columnName()), dtype, **st)
