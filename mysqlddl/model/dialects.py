"""Per-dialect rules of the schema model, as one table row per dialect.

Where MySQL and MariaDB disagree about what a DDL statement produces, the difference is a field
here, with the evidence in a comment; the resolver and the renderers read the row chosen by
``Options.dialect`` (and ``Options.server_version`` where the rule changed between versions). The
Oracle dialect starts from the MySQL row and overrides what it needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..options import Dialect, Options
from .key_order import MARIADB_KEY_ORDER, MYSQL_KEY_ORDER, ORACLE_KEY_ORDER, KeyOrder
from .oracle import resolve_column as oracle_column
from .oracle_sql import table_sql as oracle_table_sql
from .types import TypeFamily


@dataclasses.dataclass(frozen=True, slots=True)
class DialectRules:
    """The rules of one dialect. See each field's comment for the server behaviour it encodes."""

    name: str
    # Which default-collation column of charsets.CHARSETS applies ("mysql" or "mariadb"): the two
    # servers differ in a charset's default collation (MySQL 8.4 manual 12.2 "Character Sets and
    # Collations in MySQL", SHOW CHARACTER SET; utf8mb4 -> utf8mb4_0900_ai_ci there).
    collation_column: str
    # Compiled-in character_set_server / collation_server (MySQL 8.0+: utf8mb4 /
    # utf8mb4_0900_ai_ci, manual 12.3.2 "Server Character Set and Collation"; MariaDB 10.11 built
    # from source and started with --no-defaults: latin1/latin1_swedish_ci, checked on 10.11.19).
    server_charset: str
    server_collation: str
    # First version whose explicit_defaults_for_timestamp defaults to ON (MySQL 8.0.2, manual
    # 7.1.8 "Server System Variables", explicit_defaults_for_timestamp; MariaDB 10.10).
    explicit_defaults_since: tuple[int, int, int]
    # Integer display widths: kept (and filled in) before this version, dropped from it on
    # (MySQL 8.0.19, manual 13.1.6 "Numeric Data Type Attributes": display width deprecated and
    # not shown; None = always kept, MariaDB). See types.py for the table.
    int_display_width_dropped_since: tuple[int, int, int] | None
    # MariaDB: JSON is an alias of LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin with a column
    # CHECK (json_valid(`col`)) named after the column (MariaDB KB "JSON Data Type"); MySQL has a
    # native binary JSON type (manual 13.5 "The JSON Data Type").
    json_as_longtext: bool
    # Nullable columns with no DEFAULT clause get an implicit DEFAULT NULL, except these families
    # (MySQL: BLOB/TEXT/JSON/GEOMETRY cannot have a literal default, manual 13.6 "Data Type
    # Default Values", and SHOW CREATE TABLE prints no DEFAULT NULL for them; MariaDB 10.2+
    # allows defaults on them and prints DEFAULT NULL).
    no_implicit_null_default: frozenset[TypeFamily]
    # Name given to an unnamed CHECK constraint: MariaDB numbers them CONSTRAINT_1, CONSTRAINT_2...
    # (table-level only); MySQL 8.0.16+ uses <table>_chk_<n> (manual 15.1.20.6 "CHECK
    # Constraints": "a name from the table name, a literal _chk_, and an ordinal number").
    check_name_pattern: str
    # MariaDB keeps a column-level CHECK as a column constraint named after the column; MySQL 8.0
    # turns it into a table constraint with a generated name (manual 15.1.20.6, the t1 example).
    column_check_named_after_column: bool
    # Dropping a column that belongs to a multi-column PRIMARY or UNIQUE key: MySQL removes it from
    # the key (manual 15.1.9 "ALTER TABLE", "Dropping columns ... removed from any index of
    # which it is a part"); MariaDB 10.11 refuses with ER_KEY_COLUMN_DOES_NOT_EXIST (1072),
    # checked on 10.11.19.
    drop_column_in_multi_unique_is_error: bool = False
    # Generated FOREIGN KEY names (InnoDB, both servers): <table>_ibfk_<n> (MySQL manual 15.1.20.5
    # "FOREIGN KEY Constraints", naming rules; MariaDB 10.11 checked).
    fk_name_pattern: str = "{table}_ibfk_{n}"
    # MariaDB's information_schema.COLUMNS.COLUMN_DEFAULT quotes string literals and says 'NULL'
    # for DEFAULT NULL (MariaDB 10.2.7+); MySQL gives the bare value and SQL NULL (manual 28.3.8
    # "The INFORMATION_SCHEMA COLUMNS Table", COLUMN_DEFAULT).
    quoted_column_default: bool = False
    default_engine: str = "InnoDB"
    # How SHOW CREATE TABLE and information_schema spell CURRENT_TIMESTAMP without precision
    # (MySQL: CURRENT_TIMESTAMP, manual 13.2.5 "Automatic Initialization and Updating for
    # TIMESTAMP and DATETIME"; MariaDB 10.11: current_timestamp(), checked on 10.11.19).
    now_sql: str = "CURRENT_TIMESTAMP"
    # information_schema.COLUMNS.EXTRA marks expression and CURRENT_TIMESTAMP defaults with
    # DEFAULT_GENERATED (MySQL 8.0.13+, manual 28.3.8 "The INFORMATION_SCHEMA COLUMNS Table",
    # EXTRA); MariaDB does not.
    default_generated_extra: bool = True
    # A UNIQUE key on a BLOB/TEXT column without a prefix length: MariaDB 10.4+ makes it a "long
    # unique" key USING HASH, listed after the other unique keys (checked on 10.11.19); MySQL
    # rejects it (ER_BLOB_KEY_WITHOUT_LENGTH; manual 15.1.15 "CREATE INDEX", Column Prefix Key
    # Parts: "Prefixes must be specified for BLOB and TEXT key parts"), as both do for a plain or
    # primary key.
    long_unique_hash: bool = False
    # DROP TABLE a, missing (no IF EXISTS): MySQL 8.0's atomic DDL drops nothing (manual 15.1.1
    # "Atomic Data Definition Statement Support", DROP TABLE); MariaDB 10.11
    # drops a and then fails with ER_BAD_TABLE_ERROR (checked on 10.11.19).
    drop_table_partial: bool = False
    # ALTER COLUMN SET/DROP DEFAULT on a column with ON UPDATE CURRENT_TIMESTAMP: MariaDB 10.11 loses
    # the ON UPDATE (the field's unireg_check is reset); MySQL 8.0 keeps it (manual 15.1.9 "ALTER
    # TABLE": ALTER ... SET DEFAULT / DROP DEFAULT change only the default; not checked on a
    # MySQL server).
    set_default_drops_on_update: bool = False
    # A plain key on a BLOB/TEXT column without a prefix, or on a VARCHAR longer than the engine's
    # key limit: MariaDB 10.11 shortens it to min(limit // mbmaxlen, column capacity) with a
    # warning ("Specified key was too long"), e.g. KEY (text utf8mb4) -> (`u`(768)); MySQL
    # rejects the BLOB/TEXT case (manual 15.1.15 "CREATE INDEX", Column Prefix Key Parts).
    auto_key_prefix: bool = False
    # explicit_defaults_for_timestamp=OFF, "ts TIMESTAMP DEFAULT NULL" (no NULL attribute): MariaDB
    # makes it NOT NULL DEFAULT '0000-00-00 00:00:00' (checked on 10.11.19); MySQL rejects it
    # (ER_INVALID_DEFAULT; manual 7.1.8, explicit_defaults_for_timestamp disabled: "TIMESTAMP
    # columns not explicitly declared with the NULL attribute are declared NOT NULL").
    legacy_timestamp_default_null_is_zero: bool = False
    # SHOW CREATE TABLE: MariaDB 10.11 prints "CHARACTER SET cs COLLATE c" for every column whose
    # collation differs from the table's (checked on 10.11.19); MySQL prints CHARACTER SET only when
    # the charset differs and COLLATE only when the collation is not the default one (manual
    # 15.7.7.11 "SHOW CREATE TABLE" examples; not checked on a MySQL server).
    full_column_collation_clause: bool = False
    # SHOW CREATE TABLE prints INVISIBLE right after the type (MariaDB 10.11: "int(11) INVISIBLE
    # DEFAULT NULL"); MySQL 8.0.23 prints it after the default (manual 15.1.20.10 "Invisible
    # Columns", SHOW CREATE TABLE example: "`j` date DEFAULT NULL /*!80023 INVISIBLE */").
    invisible_before_default: bool = False
    # How SHOW CREATE TABLE marks a key the optimizer must not use: MySQL 8.0 "INVISIBLE" (manual
    # 10.3.12 "Invisible Indexes"); MariaDB 10.6+ "IGNORED" (KB "Ignored Indexes"; 10.11 rejects
    # the VISIBLE/INVISIBLE spelling with a syntax error, checked on 10.11.19).
    invisible_index_keyword: str = "INVISIBLE"
    # ...and how SHOW CREATE TABLE prints it: MySQL 8.0 in a versioned comment ("KEY `k` (`v`)
    # /*!80000 INVISIBLE */", SHOW CREATE TABLE on 8.0.24 as quoted in HeidiSQL issue #1388; not
    # checked on a MySQL server here); MariaDB 10.11 "KEY `k` (`v`) IGNORED" (checked on 10.11.19).
    invisible_index_sql: str = "/*!80000 INVISIBLE */"
    # CHECK (...) [NOT] ENFORCED and ALTER {CHECK|CONSTRAINT} c [NOT] ENFORCED: MySQL 8.0.16+
    # (manual 15.1.20.6 "CHECK Constraints", 15.1.9 "ALTER TABLE"); MariaDB 10.11 has no
    # enforcement flag: every form is a syntax error (checked on 10.11.19), so a NOT ENFORCED
    # check or an ALTER CHECK is refused rather than recorded.
    check_enforcement: bool = True
    # FOREIGN KEY ix (a) REFERENCES ... without CONSTRAINT: MariaDB 10.11 names the constraint ix
    # (and its index ix; checked on 10.11.19). MySQL 8.0/8.4 (manual 15.1.20.5 "FOREIGN KEY
    # Constraints", naming rules): the CONSTRAINT symbol if given, else for InnoDB a generated
    # name (<table>_ibfk_<n>); index_name (the "foreign key ID") only names the index MySQL
    # creates when no usable one exists (symbol first, then index_name, then the column).
    fk_constraint_named_after_index: bool = False
    # information_schema.COLUMNS.EXTRA: MariaDB 10.11 separates INVISIBLE from what precedes it
    # with ", " ("STORED GENERATED, INVISIBLE", checked on 10.11.19). MySQL keeps the model's
    # earlier space-separated form: unverified, there is no MySQL server in the lab.
    extra_invisible_separator: str = " "
    # Compiled-in character_set_server / collation_server of servers before a version, as
    # (version, charset, collation): MySQL before 8.0.1 defaulted to latin1 / latin1_swedish_ci
    # (MySQL 8.0.1 release notes and manual 12.3.2 "Server Character Set and Collation": the
    # default changed from latin1 to utf8mb4). None: the same in every version.
    legacy_server_charset: tuple[tuple[int, int, int], str, str] | None = None
    # The order SHOW CREATE TABLE lists keys in, and which ALTER TABLE statements sort them again
    # (sort_keys() in sql_table.cc; the two servers differ, see model/key_order.py).
    key_order: KeyOrder = MYSQL_KEY_ORDER

    # Oracle (SQL Ref. 2.8 "Database Object Names and Qualifiers"): a nonquoted identifier is
    # case-insensitive and stored in upper case; a quoted one keeps its case. "upper" folds
    # unquoted names (see identifier()); None keeps them as written (MySQL, MariaDB).
    unquoted_identifier_case: str | None = None
    # A dialect whose columns follow other rules than resolve.resolve_column's (Oracle types,
    # defaults, identity): called as column_resolver(spec, ctx) -> ResolvedColumn.
    column_resolver: Callable | None = None
    # Key length limits and automatic prefixes per storage engine (MySQL, MariaDB); Oracle has
    # neither engines nor key prefixes.
    limits_key_length: bool = True
    # InnoDB creates an index for every FOREIGN KEY; Oracle does not.
    foreign_key_index: bool = True
    # Keep the CONSTRAINT name of a PRIMARY KEY (Index.constraint_name): Oracle drops, enables
    # and disables a primary key by that name.
    keeps_constraint_names: bool = False
    # Table defaults. MySQL and MariaDB tables have a storage engine (manual 7.1.8
    # default_storage_engine; 18 "Alternative Storage Engines") and a default character set and
    # collation inherited server -> database -> table (manual 12.3.2-12.3.4 "Server/Database/
    # Table Character Set and Collation"). Oracle has neither: there are no storage engines, and
    # the database character set is fixed by CREATE DATABASE (SQL Ref. "CREATE DATABASE",
    # CHARACTER SET clause), not said or inherited in table DDL. False: Table.engine (resp.
    # Table/Database charset and collation) stay None.
    table_engine: bool = True
    table_charset: bool = True
    # DROP TABLE of a table that other tables' foreign keys refer to: Oracle refuses it with
    # ORA-02449 unless CASCADE CONSTRAINTS is given (SQL Ref. "DROP TABLE", CASCADE CONSTRAINTS).
    # MySQL and MariaDB refuse it too while foreign_key_checks=1 (MySQL manual 15.1.20.5
    # "FOREIGN KEY Constraints", Foreign Key Checks), which the model does not check: dumps and
    # binlog replays run with the checks off, and the child's foreign key stays as it was.
    drop_referenced_table_is_error: bool = False
    # A dialect whose CREATE TABLE text is not the MySQL SHOW CREATE TABLE layout of render.py:
    # called as table_sql(table) -> [CREATE TABLE, further statements (Oracle: COMMENT ON)].
    table_sql: Callable | None = None

    def identifier(self, text: str, quoted: bool) -> str:
        """A name as the dialect stores it: ``text`` is the identifier without its quotes."""
        if not quoted and self.unquoted_identifier_case == "upper":
            return text.upper()
        return text

    def explicit_defaults_for_timestamp(self, options: Options) -> bool:
        """The server default of explicit_defaults_for_timestamp (``Options`` may override)."""
        if options.explicit_defaults_for_timestamp is not None:
            return options.explicit_defaults_for_timestamp
        return version_of(options, self) >= self.explicit_defaults_since

    def server_charset_for(self, options: Options) -> tuple[str, str]:
        """The compiled-in (character_set_server, collation_server) of ``options.server_version``."""
        legacy = self.legacy_server_charset
        if legacy is not None and version_of(options, self) < legacy[0]:
            return legacy[1], legacy[2]
        return self.server_charset, self.server_collation

    def keeps_int_display_width(self, options: Options) -> bool:
        if self.int_display_width_dropped_since is None:
            return True
        return version_of(options, self) < self.int_display_width_dropped_since


MYSQL = DialectRules(
    name="mysql", collation_column="mysql", server_charset="utf8mb4",
    server_collation="utf8mb4_0900_ai_ci", explicit_defaults_since=(8, 0, 2),
    int_display_width_dropped_since=(8, 0, 19), json_as_longtext=False,
    no_implicit_null_default=frozenset({TypeFamily.TEXT, TypeFamily.BLOB, TypeFamily.JSON,
                                        TypeFamily.GEOMETRY}),
    check_name_pattern="{table}_chk_{n}", column_check_named_after_column=False,
    legacy_server_charset=((8, 0, 1), "latin1", "latin1_swedish_ci"),
)

MARIADB = DialectRules(
    name="mariadb", collation_column="mariadb", server_charset="latin1",
    server_collation="latin1_swedish_ci", explicit_defaults_since=(10, 10, 0),
    int_display_width_dropped_since=None, json_as_longtext=True,
    no_implicit_null_default=frozenset(), check_name_pattern="CONSTRAINT_{n}",
    column_check_named_after_column=True, quoted_column_default=True,
    drop_column_in_multi_unique_is_error=True, full_column_collation_clause=True,
    invisible_before_default=True, legacy_timestamp_default_null_is_zero=True,
    long_unique_hash=True, auto_key_prefix=True, set_default_drops_on_update=True,
    drop_table_partial=True, now_sql="current_timestamp()", default_generated_extra=False,
    invisible_index_keyword="IGNORED", invisible_index_sql="IGNORED", check_enforcement=False,
    fk_constraint_named_after_index=True,
    extra_invisible_separator=", ", key_order=MARIADB_KEY_ORDER,
)

# Oracle reuses the MySQL machinery where it has no rule of its own; its columns are resolved by
# model/oracle.py (types through types.ORACLE_TYPES). Generated constraint names stand in for
# Oracle's SYS_Cnnnnnn ones, which a DDL statement does not reveal.
ORACLE = dataclasses.replace(
    MYSQL, name="oracle", unquoted_identifier_case="upper", column_resolver=oracle_column,
    limits_key_length=False, foreign_key_index=False, keeps_constraint_names=True,
    fk_name_pattern="SYS_FK_{table}_{n}", check_name_pattern="SYS_CK_{table}_{n}",
    no_implicit_null_default=frozenset(), table_engine=False, table_charset=False,
    table_sql=oracle_table_sql, drop_referenced_table_is_error=True, key_order=ORACLE_KEY_ORDER)

# Longest key in bytes per engine (InnoDB with the DYNAMIC/COMPRESSED row formats: 3072, MySQL
# manual 17.22 "InnoDB Limits"; MyISAM: 1000; Aria: 2000), used by the automatic key prefix above.
MAX_KEY_LENGTH: dict[str, int] = {"innodb": 3072, "myisam": 1000, "aria": 2000}

# Engines whose keys default to HASH rather than BTREE (information_schema.STATISTICS.INDEX_TYPE)
# and engines that cannot store BLOB/TEXT columns.
HASH_INDEX_ENGINES = frozenset({"memory", "heap"})
NO_BLOB_ENGINES = frozenset({"memory", "heap"})
NO_FULLTEXT_ENGINES = frozenset({"memory", "heap", "csv", "archive", "blackhole"})

RULES: dict[Dialect, DialectRules] = {Dialect.MYSQL: MYSQL, Dialect.MARIADB: MARIADB,
                                      Dialect.ORACLE: ORACLE}

# A MariaDB dialect with a MySQL-looking server_version (the Options default is 8.0.40) means
# "no version given": treat it as the version we target.
_MARIADB_ASSUMED = (10, 11, 0)


def version_of(options: Options, rules: DialectRules) -> tuple[int, int, int]:
    v = options.server_version
    if rules is MARIADB and v[0] < 10:
        return _MARIADB_ASSUMED
    return v


def rules_for(options: Options) -> DialectRules:
    return RULES[options.dialect]
