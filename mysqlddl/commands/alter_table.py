"""ALTER TABLE: one AlterOperation per clause, applied in the server's phase order.

:class:`AlterTable` applies the clauses in the server's phases (DROP clauses, column clauses, new
keys and constraints, then table options), each phase in statement order; every operation's
``apply_to`` relies on that order. The clauses live by what they change (:mod:`.alter_columns`,
:mod:`.alter_keys`, :mod:`.alter_whole_table`, on :mod:`.alter_base`) and are importable from here.
"""

from __future__ import annotations

from ..errors import DdlSemanticError
from ..model import charsets
from ..model.catalog import Catalog
from ..model.dialects import rules_for
from ..model.ids import TableId, column_key
from ..model.resolve import (
    check_expression_columns,
    convert_column_charset,
    promote_primary_key_columns,
    prune_generated_indexes,
    refit_keys,
    validate_table,
)
from ..options import DEFAULT, Options
from .alter_base import AlterOperation, _AlterState
from .alter_columns import (
    AddColumn,
    AlterColumnDefault,
    AlterColumnVisibility,
    ChangeColumn,
    DropColumn,
    ModifyColumn,
    RenameColumn,
)
from .alter_keys import (
    AddCheck,
    AddForeignKey,
    AddIndex,
    AlterCheckEnforcement,
    AlterIndexVisibility,
    DropCheck,
    DropConstraint,
    DropForeignKey,
    DropKey,
    DropPrimaryKey,
    RenameIndex,
    _rename_indexes,
)
from .alter_whole_table import (
    AddPeriod,
    AddSystemVersioning,
    ConvertCharset,
    DefaultCharset,
    DropPeriod,
    DropSystemVersioning,
    PartitionOp,
    RenameTo,
    TableOptions,
)
from .base import Command, _command, _context, _database_defaults, _ensure_database, _put, _split_options

_DROPS = (DropColumn, DropKey, DropPrimaryKey, DropForeignKey, DropCheck, DropConstraint, DropPeriod)
_COLUMN_OPS = (AddColumn, ChangeColumn, ModifyColumn, RenameColumn, AlterColumnDefault, AlterColumnVisibility)
_KEY_OPS = (AddIndex, AddForeignKey, AddCheck)


def _phase(op: AlterOperation) -> int:
    if isinstance(op, _DROPS):
        return 0
    if isinstance(op, _COLUMN_OPS):
        return 1
    if isinstance(op, _KEY_OPS):
        return 2
    if isinstance(op, RenameIndex):
        return -1  # after the key drops, before anything else (see _rename_indexes)
    if isinstance(op, AddPeriod):
        return 1.5  # after the columns, before keys that name the period (WITHOUT OVERLAPS)
    if isinstance(op, AlterIndexVisibility):
        return -1  # on the old keys, with the renames (see AlterTable.apply)
    if isinstance(op, AlterCheckEnforcement):
        return 2.5  # after the new checks
    return 3


@_command
class AlterTable(Command):
    """ALTER TABLE [IF EXISTS] t op, op, ...: ``operations`` applied to one new version in the
    server's phases: DROP clauses, column clauses, new keys and constraints, then table options,
    each phase in statement order.

    Column definitions in ADD/CHANGE/MODIFY inherit the table charset as it is at the *end* of the
    statement (``ADD c VARCHAR(3), DEFAULT CHARSET=latin1`` gives c latin1; MariaDB 10.11 checked).
    """

    table: TableId
    operations: tuple[AlterOperation, ...] = ()
    if_exists: bool = False

    def apply(self, catalog: Catalog, options: Options = DEFAULT) -> Catalog:
        t = catalog.table(self.table)
        if t is None:
            if self.if_exists:
                return catalog.evolve(changed=())
            raise DdlSemanticError(f"Table '{catalog.qualify(self.table)}' doesn't exist")
        rules = rules_for(options)
        cs, coll = t.charset, t.collation
        if cs is None:
            cs, coll = _database_defaults(catalog, t.id.database, options)
        # The table default at the end of the statement: an explicit [DEFAULT] CHARSET/COLLATE
        # wins over CONVERT TO, in any order (MariaDB 10.11: "CONVERT TO CHARACTER SET utf8,
        # DEFAULT COLLATE latin1_bin" converts the columns and leaves the default latin1_bin).
        # CHARSET and COLLATE clauses accumulate separately and must agree (MariaDB 10.11:
        # "DEFAULT COLLATE latin1_bin, DEFAULT CHARACTER SET utf8mb4" is an error).
        explicit_cs = explicit_coll = convert = None
        for op in self.operations:
            c2 = l2 = None
            if isinstance(op, DefaultCharset):
                c2, l2 = op.charset, op.collation
            elif isinstance(op, TableOptions):
                _, c2, l2, _, _ = _split_options(op.options)
            elif isinstance(op, ConvertCharset):
                new = charsets.resolve_pair(op.charset, op.collation, (cs, coll), rules.collation_column)
                if convert is not None and new[0] != convert[0]:
                    raise DdlSemanticError(f"Conflicting declarations: 'CHARACTER SET {convert[0]}' and "
                                           f"'CHARACTER SET {new[0]}'")
                convert = new
            if l2 is not None and explicit_coll is not None and \
                    charsets.canonical_collation(l2) != charsets.canonical_collation(explicit_coll):
                raise DdlSemanticError(f"Conflicting declarations: 'COLLATE {explicit_coll}' and 'COLLATE {l2}'")
            if c2 is not None and explicit_cs is not None and \
                    charsets.canonical_charset(c2) != charsets.canonical_charset(explicit_cs):
                raise DdlSemanticError(f"Conflicting declarations: 'CHARACTER SET {explicit_cs}' and "
                                       f"'CHARACTER SET {c2}'")
            explicit_cs = c2 if c2 is not None else explicit_cs
            explicit_coll = l2 if l2 is not None else explicit_coll
        explicit = None
        if explicit_cs is not None or explicit_coll is not None:
            explicit = charsets.resolve_pair(explicit_cs, explicit_coll, (cs, coll), rules.collation_column)
        cs, coll = explicit or convert or (cs, coll)
        st = _AlterState(catalog, options, _context(catalog, options, t.name, cs, coll))
        st.convert = convert
        st.original = {column_key(c.name) for c in t.columns}
        ed = t.edit()
        # The server builds the new definition in phases (mysql_prepare_alter_table()): the old
        # one minus what is dropped, then the existing columns changed in place, then new
        # columns and FIRST/AFTER moves (which see the new names), then the new keys and
        # constraints, then the rest. So "ADD CHECK (..), DROP CONSTRAINT CONSTRAINT_1" reuses
        # the name CONSTRAINT_1, "ADD KEY (a), CHANGE a b" fails on the unknown key column a, and
        # "ADD c AFTER a, CHANGE a b" fails on the unknown column a.
        ops = self.operations
        for op in ops:  # key and constraint drops name the old keys...
            if _phase(op) == 0 and not isinstance(op, DropColumn):
                op.apply_to(ed, st)
        renames = [op for op in ops if isinstance(op, RenameIndex)]
        renamed = {column_key(op.old_name) for op in renames}
        for op in ops:  # ...and ALTER INDEX, on an old key this statement neither drops nor renames
            if isinstance(op, AlterIndexVisibility):
                # (MariaDB 10.11: "ADD KEY k .., ALTER INDEX k IGNORED" and "RENAME KEY i TO i2,
                # ALTER INDEX i[2] .." fail with "Key 'k' doesn't exist"; checked on 10.11.19)
                if column_key(op.name) in renamed:
                    raise DdlSemanticError(f"Key '{op.name}' doesn't exist in table '{ed.id.name}'")
                op.apply_to(ed, st)
        _rename_indexes(ed, renames)  # ...so do renames
        readded = {column_key(op.column.name) for op in ops if isinstance(op, AddColumn)}
        for op in ops:  # ...then column drops (which also shrink keys)
            if isinstance(op, DropColumn):
                # a key part naming a column the statement drops and adds again stays (MariaDB
                # 10.11: "DROP COLUMN z, ADD COLUMN z INT" keeps KEY q (z); the new key parts are
                # looked up by name in the new definition)
                op.apply_to(ed, st, keep_keys=column_key(op.name) in readded)
        later = []
        for op in ops:  # existing columns change in place first...
            if isinstance(op, (ChangeColumn, ModifyColumn)):
                op.apply_to(ed, st, in_place=True)
            elif isinstance(op, (AlterColumnDefault, AlterColumnVisibility)):
                later.append(op)  # see _AlterState.claim_alter
            elif _phase(op) == 1 and not isinstance(op, AddColumn):
                op.apply_to(ed, st)
        for op in ops:  # ...then new columns and moves, in statement order
            if isinstance(op, AddColumn):
                op.apply_to(ed, st)
            elif isinstance(op, (ChangeColumn, ModifyColumn)) and (op.first or op.after is not None) \
                    and ed.has_column(op.column.name):
                ed.move_column(op.column.name, first=op.first, after=op.after)
        for op in ops:  # columns (re)defined in the second pass: ADD and positioned CHANGE/MODIFY
            if isinstance(op, AddColumn) or (isinstance(op, (ChangeColumn, ModifyColumn))
                                              and (op.first or op.after is not None)):
                st.new_defs.add(column_key(op.column.name))
        for op in later:
            st.claim_alter(op.name, ed)
            op.apply_to(ed, st)
        for phase in (1.5, 2, 2.5, 3):
            for op in ops:
                if _phase(op) == phase:
                    op.apply_to(ed, st)
        if st.convert is not None:
            cs2, coll2 = st.convert
            ed.columns = [convert_column_charset(
                c, cs2, charsets.binary_collation(cs2) if c.name.lower() in st.binary else coll2,
                promote=c.name.lower() not in st.changed) for c in ed.columns]
            st.changed |= {c.name.lower() for c in ed.columns if c.charset is not None}
        if st.changed:
            refit_keys(ed, st.changed, st.ctx)
        if not ed.columns:
            raise DdlSemanticError("You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
        if rules.drop_column_in_multi_unique_is_error and st.dropped:
            gone = {column_key(c) for c in st.dropped}
            for ix in t.keys():
                cols = [column_key(c) for c in ix.columns]
                hit = [c for c in ix.columns if column_key(c) in gone]
                if ix.unique and len(cols) > 1 and hit and len(hit) < len(cols) and ed.has_index(ix.name):
                    raise DdlSemanticError(f"Key column '{hit[0]}' doesn't exist in table")
        prune_generated_indexes(ed)
        # Sort the keys again where the server does (model/key_order.py: MySQL on every ALTER
        # but a bare RENAME TO; MariaDB when a key is added or the head key loses its standing),
        # by the NULL-ability the statement gives the columns before a new PRIMARY KEY forces
        # them NOT NULL (MariaDB 10.11: "ADD PRIMARY KEY (a)" keeps UNIQUE (a) after a NOT NULL
        # unique key; checked on 10.11.19).
        order = rules.key_order
        if order.resorts(t, ed.all_keys(), ed.columns, key_added=ed.keys_added,
                         rebuilt=any(not isinstance(op, RenameTo) for op in ops)):
            ed.resort_keys(order)
        promote_primary_key_columns(ed, st.ctx)
        check_expression_columns(ed)
        validate_table(ed)
        if t.sequence is not None and (
                [(c.name, c.column_type, c.nullable) for c in ed.columns] != [(c.name, c.column_type, c.nullable)
                                                                                for c in t.columns]
                or ed.all_keys() or ed.checks):
            # MariaDB 10.11: "Sequence 'db.s' table structure is invalid (Wrong number of columns)"
            raise DdlSemanticError(f"Sequence '{t.id}' table structure is invalid")
        new_id = catalog.qualify(st.new_id.qualified(t.id.database)) if st.new_id else t.id
        if st.new_id is not None and catalog.key(new_id) != catalog.key(t.id):
            if catalog.table(new_id) is not None:
                raise DdlSemanticError(f"Table '{new_id.name}' already exists")
            ed.rename(new_id)
            table = ed.build()
            dbs = _ensure_database(catalog, new_id.database, options)
            if table.temporary:
                return catalog.evolve(put_temporary=[table], remove_temporary=[t.id],
                                      changed=(t.id, new_id), databases=dbs)
            return catalog.evolve(put=[table], remove=[t.id], changed=(t.id, new_id), databases=dbs)
        return _put(catalog, ed.build(), changed=(t.id,))


__all__ = [
    "AddCheck", "AddColumn", "AddForeignKey", "AddIndex", "AddPeriod", "AddSystemVersioning", "AlterCheckEnforcement",
    "AlterColumnDefault", "AlterColumnVisibility", "AlterIndexVisibility", "AlterOperation", "AlterTable",
    "ChangeColumn", "ConvertCharset", "DefaultCharset", "DropCheck", "DropColumn", "DropConstraint", "DropForeignKey",
    "DropKey", "DropPeriod", "DropPrimaryKey", "DropSystemVersioning", "ModifyColumn", "PartitionOp", "RenameColumn",
    "RenameIndex", "RenameTo", "TableOptions",
]
