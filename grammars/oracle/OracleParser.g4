// Oracle DDL parser, written for mysqlddl from the Oracle Database SQL Language Reference (23ai;
// "SQL Ref." below), chapters 12-15 "SQL Statements". No other project's grammar was copied or
// adapted. README.md records every deliberate decision; rule and label names are the listener
// interface (mysqlddl/ddl/oracle/*).
//
// Shape rules for speed (shared/ANTLR-NOTES.md): one statement per parse, every decision made on
// a few tokens (SLL-friendly, no full-context ambiguity on valid input), no predicates/actions.
parser grammar OracleParser;

options { tokenVocab = OracleLexer; }

// One statement (split by mysqlddl/ddl/oracle/script.py); an empty one is valid.
singleStatement
    : (schemaStatement SEMI? | otherStatement)? EOF
    ;

schemaStatement
    : createTable
    | alterTable
    | dropTable
    | truncateTable
    | commentOn
    | renameObject
    ;

// ============================================================== CREATE TABLE
// SQL Ref. "CREATE TABLE": relational_table. Object tables (OF type) and AS subquery are
// recognised; the listener says they are not modelled. Everything after the relational
// properties (physical, table and LOB properties, partitioning, ON COMMIT, ROW MOVEMENT,
// FLASHBACK ARCHIVE, ...) is `tableProperties`, kept as options (README decision 4).
createTable
    : CREATE tableKind? TABLE (IF NOT EXISTS)? tableName sharingClause?
      (OF objectTypeName)?
      (LPAREN relationalProperty (COMMA relationalProperty)* RPAREN)?
      tableProperties
      (AS subqueryTail)?
    ;

tableKind
    : GLOBAL TEMPORARY
    | PRIVATE TEMPORARY
    | SHARDED
    | DUPLICATED
    | IMMUTABLE BLOCKCHAIN?
    | BLOCKCHAIN
    ;

sharingClause
    : SHARING EQ identifier identifier?
    ;

objectTypeName
    : identifier (DOT identifier)?
    ;

// SQL Ref. "CREATE TABLE", relational_properties.
relationalProperty
    : outOfLineConstraint
    | supplementalLogging
    | periodDefinition
    | columnDefinition
    ;

// SQL Ref. "CREATE TABLE", period_definition (Temporal Validity): not modelled.
periodDefinition
    : PERIOD FOR identifier columnList?
    ;

// SQL Ref. "CREATE TABLE", supplemental_logging_props (kept as text, not modelled).
supplementalLogging
    : SUPPLEMENTAL LOG (parenGroup | ~(LPAREN | RPAREN | COMMA | SEMI))*
    ;

// Anything but AS (which starts the subquery); LOB/NESTED TABLE/VARRAY "STORE AS" is the one
// AS inside table properties.
// It starts with a word that starts a clause (never '(' or '.'), so it cannot compete with the
// relational properties or a schema-qualified table name.
tableProperties
    : (tablePropertyStart tablePropertyToken*)?
    ;

tablePropertyStart
    : ID | nonReservedKeyword | ON | DEFAULT | ROW | FOR | COLUMN | CLUSTER | INDEX
    ;

tablePropertyToken
    : parenGroup
    | STORE AS?
    | ~(LPAREN | RPAREN | AS | STORE | SEMI)
    ;

subqueryTail
    : (parenGroup | ~(LPAREN | RPAREN | SEMI))*
    ;

// ============================================================== columns
// SQL Ref. "CREATE TABLE", column_definition and virtual_column_definition. The data type is
// optional (virtual columns, CREATE TABLE (a, b) AS SELECT); attributes are one loop in any
// order, each labelled alternative handled by one entry of the listener's table.
columnDefinition
    : columnName dataType? columnAttribute*
    ;

columnAttribute
    : DEFAULT (ON NULL (FOR INSERT (ONLY | AND UPDATE))?)? expression          # defaultAttr
    | GENERATED (ALWAYS | BY DEFAULT (ON NULL (FOR INSERT (ONLY | AND UPDATE))?)?)
      AS IDENTITY (parenGroup | identityOptionToken+)?                           # identityAttr
    | (GENERATED ALWAYS)? AS parenGroup (VIRTUAL (BY ID FOR ID)?)?               # virtualAttr
    | VISIBLE                                                                    # visibleAttr
    | INVISIBLE                                                                  # invisibleAttr
    | SORT                                                                       # sortAttr
    | COLLATE identifier                                                         # collateAttr
    | ENCRYPT encryptionSpec                                                     # encryptAttr
    | DECRYPT                                                                    # decryptAttr
    | DROP IDENTITY                                                              # dropIdentityAttr
    | ANNOTATIONS parenGroup                                                     # annotationsAttr
    | inlineConstraint                                                           # constraintAttr
    ;

// SQL Ref. "CREATE TABLE", identity_options. The reference puts them in parentheses;
// DBMS_METADATA.GET_DDL writes them without (START WITH 101 INCREMENT BY 1 CACHE 20 NOORDER
// NOCYCLE NOKEEP NOSCALE ...): a run of words and numbers, kept as text.
identityOptionToken
    : ID | WITH | BY | MINUS | INTEGER_LITERAL | NUMBER_LITERAL | KEEP | GLOBAL
    ;

// SQL Ref. "CREATE TABLE", encryption_spec.
encryptionSpec
    : (USING stringLiteral)? (IDENTIFIED BY identifier)? stringLiteral? (NO? SALT)?
    ;

// ============================================================== constraints
// SQL Ref. "constraint": inline_constraint, out_of_line_constraint, references_clause,
// constraint_state.
inlineConstraint
    : (CONSTRAINT constraintName)? inlineConstraintBody constraintState*
    ;

inlineConstraintBody
    : NOT NULL                                                                   # notNullConstraint
    | NULL                                                                       # nullConstraint
    | UNIQUE                                                                     # uniqueInline
    | PRIMARY KEY                                                                # primaryKeyInline
    | referencesClause                                                           # referencesInline
    | CHECK parenGroup                                                           # checkInline
    ;

outOfLineConstraint
    : (CONSTRAINT constraintName)? outOfLineConstraintBody constraintState*
    ;

outOfLineConstraintBody
    : PRIMARY KEY columnList                                                     # primaryKeyConstraint
    | UNIQUE columnList                                                          # uniqueConstraint
    | FOREIGN KEY columnList referencesClause                                    # foreignKeyConstraint
    | CHECK parenGroup                                                           # checkConstraint
    ;

referencesClause
    : REFERENCES tableName columnList? (ON DELETE (CASCADE | SET NULL))?
    ;

constraintState
    : NOT? DEFERRABLE                                                            # deferrableState
    | INITIALLY (IMMEDIATE | DEFERRED)                                           # initiallyState
    | RELY                                                                       # relyState
    | NORELY                                                                     # norelyState
    | ENABLE                                                                     # enableState
    | DISABLE                                                                    # disableState
    | VALIDATE                                                                   # validateState
    | NOVALIDATE                                                                 # novalidateState
    | usingIndexClause                                                           # usingIndexState
    | EXCEPTIONS INTO tableName                                                  # exceptionsState
    ;

// SQL Ref. "constraint", using_index_clause: an index name, (CREATE INDEX ...), or index
// properties. The properties are a token run that stops at whatever can follow a constraint.
usingIndexClause
    : USING INDEX (parenGroup | usingIndexToken)*
    ;

usingIndexToken
    : ~(LPAREN | RPAREN | COMMA | SEMI | ENABLE | DISABLE | VALIDATE | NOVALIDATE | RELY | NORELY
      | DEFERRABLE | INITIALLY | NOT | NULL | EXCEPTIONS | USING | ADD | DROP | MODIFY | RENAME | SET
      | CONSTRAINT | PRIMARY | UNIQUE | CHECK | FOREIGN | REFERENCES | DEFAULT | CASCADE | KEEP)
    ;

columnList
    : LPAREN columnName (COMMA columnName)* RPAREN
    ;

// ============================================================== data types
// SQL Ref. 2.1 "Data Types": Oracle built-in types with their own syntax, the ANSI types
// (2.1.2 "ANSI, DB2, and SQL/DS Data Types"), and `namedType` for every type that is a plain
// name with optional (n) / (p, s) / (n BYTE|CHAR): CLOB, NCLOB, BLOB, BFILE, BINARY_FLOAT,
// BINARY_DOUBLE, NVARCHAR2, NCHAR, UROWID, INT, DEC, NUMERIC, REAL, BOOLEAN, JSON, XMLTYPE and
// user-defined types (schema.type). The listener maps names through the model's type table.
dataType
    : NUMBER numericArgs?                                                        # numberType
    | (DECIMAL | INTEGER | SMALLINT | FLOAT) numericArgs?                        # ansiNumericType
    | DOUBLE PRECISION                                                           # doublePrecisionType
    | (VARCHAR2 | VARCHAR) charLength?                                           # varcharType
    | (CHAR | CHARACTER) VARYING? charLength?                                    # charType
    | NATIONAL (CHAR | CHARACTER) VARYING? charLength?                           # nationalCharType
    | RAW LPAREN INTEGER_LITERAL RPAREN                                          # rawType
    | LONG RAW?                                                                  # longType
    | DATE                                                                       # dateType
    | TIMESTAMP (LPAREN INTEGER_LITERAL RPAREN)? (WITH LOCAL? TIME ZONE)?        # timestampType
    | INTERVAL YEAR (LPAREN INTEGER_LITERAL RPAREN)? TO MONTH                    # intervalYearType
    | INTERVAL DAY (LPAREN INTEGER_LITERAL RPAREN)? TO SECOND (LPAREN INTEGER_LITERAL RPAREN)?  # intervalDayType
    | ROWID                                                                      # rowidType
    | typeName typeArgs?                                                         # namedType
    ;

// (p), (p, s), (*, s), (n BYTE|CHAR): NUMBER(*, s) means precision 38 (SQL Ref. 2.1.1
// "NUMBER Data Type"); a negative scale rounds left of the point.
numericArgs
    : LPAREN (INTEGER_LITERAL | STAR) (COMMA MINUS? INTEGER_LITERAL)? lengthSemantics? RPAREN
    ;

charLength
    : LPAREN INTEGER_LITERAL lengthSemantics? RPAREN
    ;

// The arguments of a named type: (n), (p, s), (n BYTE|CHAR), and VECTOR's (dimensions | *,
// format | * [, DENSE | SPARSE]) (23ai, SQL Ref. 2.1.x "VECTOR Data Type").
typeArgs
    : LPAREN typeArg (COMMA typeArg)* lengthSemantics? RPAREN
    ;

typeArg
    : MINUS? INTEGER_LITERAL
    | STAR
    | ID
    ;

// SQL Ref. 2.1.1 "VARCHAR2 Data Type": BYTE or CHAR length semantics.
lengthSemantics
    : BYTE
    | CHAR
    ;

typeName
    : (ID | QUOTED_ID) (DOT (ID | QUOTED_ID))?
    ;

// ============================================================== expressions (DEFAULT)
// SQL Ref. 6 "Expressions", reduced to what a DEFAULT needs: literals, names (sequence
// pseudocolumns such as s.NEXTVAL), function calls (arguments as a balanced group), datetime and
// interval literals, CASE ... END, parentheses, and the arithmetic/concatenation operators.
// CHECK conditions and virtual-column expressions are always parenthesised: `parenGroup`.
expression
    : unaryExpression (binaryOperator unaryExpression)*
    ;

binaryOperator
    : PLUS | MINUS | STAR | SLASH | CONCAT | POWER
    ;

unaryExpression
    : (PLUS | MINUS)* primaryExpression
    ;

primaryExpression
    : literal                                                                    # literalExpr
    | DATE stringLiteral                                                         # dateLiteralExpr
    | TIMESTAMP stringLiteral                                                    # timestampLiteralExpr
    | INTERVAL stringLiteral intervalQualifier                                   # intervalLiteralExpr
    | caseExpression                                                             # caseExpr
    | parenGroup                                                                 # parenExpr
    | qualifiedName parenGroup?                                                  # nameExpr
    ;

// YEAR, MONTH, DAY, HOUR, MINUTE, SECOND [(p)] [TO ...]: all of them are identifiers here.
intervalQualifier
    : identifier parenGroup? (TO identifier parenGroup?)?
    ;

caseExpression
    : CASE (caseExpression | parenGroup | ~(CASE | END | LPAREN | RPAREN | SEMI))* END
    ;

literal
    : stringLiteral
    | INTEGER_LITERAL
    | NUMBER_LITERAL
    | NULL
    ;

stringLiteral
    : STRING
    | Q_STRING
    ;

// A balanced parenthesised token run: function arguments, CHECK conditions, virtual-column
// expressions, identity options, storage clauses. Its text is cut from the statement.
parenGroup
    : LPAREN (parenGroup | ~(LPAREN | RPAREN))* RPAREN
    ;

// ============================================================== ALTER TABLE
// SQL Ref. "ALTER TABLE": column_clauses, constraint_clauses, alter_table_properties
// (RENAME TO), and everything else (partitioning, physical attributes, supplemental logging,
// SHRINK, MOVE, READ ONLY, ...) as `otherAlterClause`, which runs to the end (README decision 6).
alterTable
    : ALTER TABLE tableName alterTableClause+
    ;

// otherAlterClause comes first: for the rare input that both shapes fit (MODIFY PARTITION p
// ... where PARTITION could be a column name), the earlier alternative wins.
alterTableClause
    : otherAlterHead otherAlterToken*                                            # otherAlterClause
    | ADD LPAREN relationalProperty (COMMA relationalProperty)* RPAREN          # addListClause
    | ADD outOfLineConstraint                                                    # addConstraintClause
    | ADD columnDefinition                                                       # addColumnClause
    | MODIFY LPAREN modifyColumn (COMMA modifyColumn)* RPAREN                    # modifyListClause
    | MODIFY CONSTRAINT constraintName constraintState+ dropConstraintOption*   # modifyConstraintClause
    | MODIFY keyReference constraintState+ dropConstraintOption*                 # modifyKeyClause
    | MODIFY modifyColumn                                                        # modifyColumnClause
    | DROP COLUMN columnName dropColumnOption*                                   # dropColumnClause
    | DROP LPAREN columnName (COMMA columnName)* RPAREN dropColumnOption*        # dropColumnListClause
    | DROP UNUSED COLUMNS (CHECKPOINT INTEGER_LITERAL)?                          # dropUnusedClause
    | DROP COLUMNS CONTINUE (CHECKPOINT INTEGER_LITERAL)?                        # dropColumnsContinueClause
    | DROP CONSTRAINT constraintName dropConstraintOption*                       # dropConstraintClause
    | DROP keyReference dropConstraintOption*                                    # dropKeyClause
    | SET UNUSED (COLUMN columnName | LPAREN columnName (COMMA columnName)* RPAREN)
      dropColumnOption*                                                          # setUnusedClause
    | RENAME TO tableName                                                        # renameToClause
    | RENAME COLUMN columnName TO columnName                                     # renameColumnClause
    | RENAME CONSTRAINT constraintName TO constraintName                         # renameConstraintClause
    | (ENABLE | DISABLE) (VALIDATE | NOVALIDATE)? (CONSTRAINT constraintName | keyReference)
      constraintState* dropConstraintOption*                                     # constraintStateClause
    ;

// SQL Ref. "ALTER TABLE", modify_col_properties / modify_virtcol_properties: only what is
// written changes (the type, the default, NULL-ability, visibility...).
modifyColumn
    : columnName dataType? columnAttribute*
    ;

keyReference
    : PRIMARY KEY
    | UNIQUE columnList
    ;

dropColumnOption
    : CASCADE CONSTRAINTS
    | INVALIDATE
    | CHECKPOINT INTEGER_LITERAL
    | ONLINE
    ;

dropConstraintOption
    : CASCADE
    | (KEEP | DROP) INDEX
    | ONLINE
    ;

// The first tokens of the clauses that are accepted and not modelled. ADD/DROP/MODIFY/RENAME/
// ENABLE/DISABLE/SET start modelled clauses too, so here they need a second word that no
// modelled clause has there; otherwise the head is a word (never '.', so a schema-qualified table
// name cannot be read as a table name plus a clause).
otherAlterHead
    : ADD (PARTITION | SUBPARTITION | SUPPLEMENTAL | OVERFLOW | PERIOD)
    | DROP (PARTITION | SUBPARTITION | SUPPLEMENTAL | CLUSTERING | PERIOD | ID)
    | MODIFY (PARTITION | SUBPARTITION | DEFAULT | LOB | NESTED | VARRAY | OPAQUE | CLUSTERING)
    | RENAME (PARTITION | SUBPARTITION)
    | (ENABLE | DISABLE) (ROW | TABLE | ALL | LOGICAL | ID)
    | SET ~(UNUSED | SEMI)
    | ID | FLASHBACK | NO | ANNOTATIONS | TRUNCATE | MERGE | ROW | LOB | NESTED | CLUSTERING
    | OVERFLOW | PARTITION | SUBPARTITION | LOGICAL
    ;

otherAlterToken
    : parenGroup
    | ~(LPAREN | RPAREN | SEMI)
    ;

// ============================================================== DROP / TRUNCATE / COMMENT
// SQL Ref. "DROP TABLE" (IF EXISTS: 23ai). The redo log (LogMiner, OpenLogReplicator) records a
// drop into the recycle bin as `DROP TABLE t [CASCADE CONSTRAINTS] AS "BIN$..."`, also with
// CONSTRAINT in the singular: both are accepted.
dropTable
    : DROP TABLE (IF EXISTS)? tableName (CASCADE (CONSTRAINTS | CONSTRAINT))? PURGE? (AS (QUOTED_ID | stringLiteral))?
    ;

// SQL Ref. "TRUNCATE TABLE".
truncateTable
    : TRUNCATE TABLE tableName ((PRESERVE | PURGE) MATERIALIZED VIEW LOG)?
      ((DROP ALL? | REUSE) STORAGE)? CASCADE?
    ;

// SQL Ref. "COMMENT".
commentOn
    : COMMENT ON TABLE tableName IS stringLiteral                                # commentOnTable
    | COMMENT ON COLUMN columnReference IS stringLiteral                         # commentOnColumn
    ;

columnReference
    : identifier DOT identifier (DOT identifier)?
    ;

// SQL Ref. "RENAME": a table, view, sequence or private synonym of the current schema.
renameObject
    : RENAME identifier TO identifier
    ;

// ============================================================== other statements
// Recognised by their first words and not parsed further (README decision 7): the rest of the
// statement is any token run. A statement that starts with none of these is a syntax error.
otherStatement
    : CREATE ~(TABLE | GLOBAL | PRIVATE | SHARDED | DUPLICATED | IMMUTABLE | BLOCKCHAIN | SEMI) anyToken*
    | ALTER ~(TABLE | SEMI) anyToken*
    | DROP ~(TABLE | SEMI) anyToken*
    | TRUNCATE CLUSTER anyToken*
    | COMMENT ON ~(TABLE | COLUMN | SEMI) anyToken*
    | otherVerb anyToken*
    ;

otherVerb
    : SELECT | INSERT | UPDATE | DELETE | MERGE | WITH | LPAREN
    | GRANT | REVOKE | AUDIT | NOAUDIT | ANALYZE | ASSOCIATE | DISASSOCIATE | ADMINISTER
    | FLASHBACK | PURGE | LOCK | EXPLAIN | CALL
    | COMMIT | ROLLBACK | SAVEPOINT | SET
    | BEGIN | DECLARE | EXEC | EXECUTE
    ;

anyToken
    : .
    ;

// ============================================================== names
tableName
    : identifier (DOT identifier)?
    ;

columnName
    : identifier
    ;

constraintName
    : identifier (DOT identifier)?
    ;

qualifiedName
    : identifier (DOT identifier)*
    ;

identifier
    : ID
    | QUOTED_ID
    | nonReservedKeyword
    ;

// Every keyword token that Oracle does not reserve (SQL Ref. Appendix D), minus CONSTRAINT,
// PRIMARY, FOREIGN and SUPPLEMENTAL, which start out-of-line constraints and supplemental
// logging where a column name may also start (README decision 3).
nonReservedKeyword
    : ACCEPT | ADMINISTER | ALWAYS | ANALYZE | ANNOTATIONS | ASSOCIATE | BEGIN | BLOCKCHAIN | BYTE
    | CALL | CASCADE | CASE | CHARACTER | CHECKPOINT | CLUSTERING | COLLATE | COLUMNS | COMMIT | CONSTRAINTS
    | CONTINUE | DAY | DECLARE | DECRYPT | DEFERRABLE | DEFERRED | DISABLE | DISASSOCIATE | DOUBLE
    | DUPLICATED | ENABLE | ENCRYPT | END | EXCEPTIONS | EXEC | EXECUTE | EXPLAIN | FLASHBACK
    | GENERATED | GLOBAL | IDENTITY | IF | IMMUTABLE | INITIALLY | INTERVAL | INVALIDATE | INVISIBLE
    | KEEP | KEY | LOB | LOCAL | LOG | LOGICAL | MATERIALIZED | MERGE | MONTH | NATIONAL | NESTED
    | NO | NORELY | NOVALIDATE | ONLY | OPAQUE | OVERFLOW | PARTITION | PERIOD | PRECISION | PRESERVE
    | PRIVATE | PURGE | RELY | REUSE | ROLLBACK | SALT | SAVEPOINT | SECOND | SHARDED | SHARING
    | SORT | STORAGE | STORE | SUBPARTITION | TEMPORARY | TIME | TIMESTAMP | TRUNCATE | UNUSED
    | USING | VARRAY | VARYING | VIRTUAL | VISIBLE | YEAR | ZONE
    ;
