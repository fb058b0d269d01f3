// MySQL / MariaDB parser grammar, written for mysqlddl from the reference manuals:
//   MySQL 8.0 / 8.4 Reference Manual (chapter "SQL Statements", "Expressions", "Data Types",
//   "Keywords and Reserved Words"), and the MariaDB Server documentation (CREATE TABLE,
//   ALTER TABLE, CREATE SEQUENCE, System-Versioned Tables, Executable Comments).
// Design rules (see README.md next to this file and shared/ANTLR-NOTES.md):
//   - one statement per parse (entry rule singleStatement);
//   - alternatives decidable on their first tokens (SLL-friendly), no predicates, no actions;
//   - keywords usable as identifiers through one plain token-set rule (keywordAsIdentifier).
parser grammar MySqlParser;

options { tokenVocab = MySqlLexer; }

// ============================================================================ entry

singleStatement: sqlStatement? SEMI? EOF;

sqlStatement
    : ddlStatement
    | dmlStatement
    | transactionStatement
    | accountStatement
    | routineStatement
    | adminStatement
    | setStatement
    | useStatement
    ;

ddlStatement
    : createTable
    | createTableLike
    | alterTable
    | dropTable
    | renameTable
    | truncateTable
    | createDatabase
    | alterDatabase
    | dropDatabase
    | createIndex
    | dropIndex
    | createView
    | alterView
    | dropView
    | createSequence
    | alterSequence
    | dropSequence
    | createTablespace
    | alterTablespace
    | dropTablespace
    | createServer
    | createLogfileGroup
    | alterLogfileGroup
    | dropLogfileGroup
    | alterServer
    | dropServer
    ;

// ============================================================================ CREATE TABLE
// MySQL 8.4 manual 15.1.20 "CREATE TABLE Statement"; MariaDB "CREATE TABLE" (OR REPLACE,
// WITH SYSTEM VERSIONING, PERIOD FOR). The LIKE form is its own rule (createTableLike) so the
// listener for a copied table is separate from the one that reads column definitions.

createTable
    : CREATE orReplace? TEMPORARY? TABLE ifNotExists? tableName
      ( LPAREN tableElementList RPAREN createTableOptions? partitionClause? createTableSelect?
      | createTableOptions? partitionClause? createTableSelect?
      )
    ;

createTableLike
    : CREATE orReplace? TEMPORARY? TABLE ifNotExists? tableName
      ( LIKE tableName | LPAREN LIKE tableName RPAREN )
    ;

// [IGNORE | REPLACE] [AS] query_expression (manual 15.1.20.4 "CREATE TABLE ... SELECT").
createTableSelect: (IGNORE | REPLACE)? AS? queryExpression;

orReplace: OR REPLACE;
ifNotExists: IF NOT EXISTS;
ifExists: IF EXISTS;

tableElementList: tableElement (COMMA tableElement)*;

tableElement
    : columnDefinition
    | indexDefinition
    | tableConstraint
    | periodDefinition
    ;

// col_name column_definition. The manual gives two orders (plain and generated); both servers
// accept the attributes in any order, so they are one loop.
columnDefinition: columnName dataType columnAttribute*;

columnAttribute
    : NOT? NULL                                                  # nullAttr
    | NOT SECONDARY                                              # notSecondaryAttr
    | DEFAULT defaultValue                                       # defaultAttr
    | ON UPDATE (currentTimestamp | functionCall)                # onUpdateAttr
    | AUTO_INCREMENT                                             # autoIncrementAttr
    | PRIMARY? KEY                                               # primaryKeyAttr
    | UNIQUE KEY?                                                # uniqueKeyAttr
    | COMMENT textLiteral                                        # commentAttr
    | COLLATE collationName                                      # collateAttr
    | charsetClause BINARY?                                      # charsetAttr
    | (GENERATED ALWAYS)? AS LPAREN expression RPAREN            # generatedAttr
    | GENERATED ALWAYS AS ROW (START | END)                      # rowPeriodAttr
    | generatedStorage                                           # storageKindAttr
    | VISIBLE                                                    # visibleAttr
    | INVISIBLE                                                  # invisibleAttr
    | COLUMN_FORMAT (FIXED | DYNAMIC | DEFAULT | COMPRESSED)     # columnFormatAttr
    | STORAGE (DISK | MEMORY | DEFAULT)                          # storageAttr
    | SRID DECIMAL_LITERAL                                       # sridAttr
    | REF_SYSTEM_ID EQ? DECIMAL_LITERAL                          # sridAttr
    | referenceDefinition                                        # referencesAttr
    | (CONSTRAINT identifier?)? CHECK LPAREN expression RPAREN constraintEnforcement?  # checkAttr
    | (ENGINE_ATTRIBUTE | SECONDARY_ENGINE_ATTRIBUTE) EQ? textLiteral  # engineAttr
    | COMPRESSED (EQ identifier)?                                # compressedAttr
    | (WITH | WITHOUT) SYSTEM VERSIONING                         # versioningAttr
    | SERIAL DEFAULT VALUE                                       # serialDefaultValueAttr
    | ID EQ optionValue                                          # engineDefinedAttr
    ;

generatedStorage: VIRTUAL | STORED | PERSISTENT;

// DEFAULT {literal | (expr)}: manual 13.6 "Data Type Default Values". MariaDB also takes a bare
// function call or NEXT VALUE FOR. Alternatives start with different tokens (lesson 2).
defaultValue
    : signedLiteral
    | LPAREN expression RPAREN
    | currentTimestamp
    | functionCall
    | specialFunction
    | sequenceValue
    ;

currentTimestamp
    : (CURRENT_TIMESTAMP | LOCALTIME | LOCALTIMESTAMP | CURRENT_DATE | CURRENT_TIME
      | UTC_TIMESTAMP | UTC_DATE | UTC_TIME) (LPAREN DECIMAL_LITERAL? RPAREN)?
    ;

constraintEnforcement: NOT? ENFORCED;

// Index forms (manual 15.1.20 create_definition, 15.1.15 CREATE INDEX).
indexDefinition
    : (INDEX | KEY) ifNotExists? indexName? indexType? keyPartList indexOption*          # plainIndex
    | (FULLTEXT | SPATIAL) (INDEX | KEY)? ifNotExists? indexName? keyPartList indexOption*  # fulltextIndex
    ;

tableConstraint
    : constraintName? PRIMARY KEY ifNotExists? indexName? indexType? keyPartList indexOption*  # primaryKeyConstraint
    | constraintName? UNIQUE (INDEX | KEY)? ifNotExists? indexName? indexType? keyPartList indexOption*  # uniqueConstraint
    | constraintName? FOREIGN KEY ifNotExists? indexName? columnList referenceDefinition    # foreignKeyConstraint
    | constraintName? CHECK LPAREN expression RPAREN constraintEnforcement?                 # checkConstraint
    ;

constraintName: CONSTRAINT identifier?;

// MariaDB application-time and system-time periods.
periodDefinition: PERIOD FOR (SYSTEM_TIME | identifier) LPAREN columnName COMMA columnName RPAREN;

indexType: (USING | TYPE) (BTREE | HASH | RTREE);

// key_part: {col_name [(length)] | (expr)} [ASC | DESC] -- disjoint by first token.
keyPartList: LPAREN keyPart (COMMA keyPart)* (COMMA identifier WITHOUT OVERLAPS)? RPAREN;

keyPart
    : columnName (LPAREN DECIMAL_LITERAL RPAREN)? (ASC | DESC)?
    | LPAREN expression RPAREN (ASC | DESC)?
    ;

indexOption
    : KEY_BLOCK_SIZE EQ? DECIMAL_LITERAL
    | indexType
    | WITH PARSER identifier
    | COMMENT textLiteral
    | VISIBLE
    | INVISIBLE
    | NOT? IGNORED
    | (ENGINE_ATTRIBUTE | SECONDARY_ENGINE_ATTRIBUTE) EQ? textLiteral
    | CLUSTERING EQ (YES | NO)
    | ID EQ optionValue
    ;

// reference_definition (manual 15.1.20.5 "FOREIGN KEY Constraints").
referenceDefinition
    : REFERENCES tableName keyPartList? (MATCH (FULL | PARTIAL | SIMPLE))?
      (ON (DELETE | UPDATE) referenceAction)*
    ;

referenceAction: RESTRICT | CASCADE | SET NULL | NO ACTION | SET DEFAULT;

columnList: LPAREN columnName (COMMA columnName)* RPAREN;

// ---------------------------------------------------------------------------- table options
// table_option list of manual 15.1.20; separated by optional commas.

createTableOptions: tableOption (COMMA? tableOption)*;

tableOption
    : ENGINE EQ? engineName                                           # engineOption
    | DEFAULT? charsetClause                                          # charsetOption
    | DEFAULT? COLLATE EQ? collationName                              # collateOption
    | AUTO_INCREMENT EQ? DECIMAL_LITERAL                              # autoIncrementOption
    | COMMENT EQ? textLiteral                                         # commentOption
    | (AVG_ROW_LENGTH | MAX_ROWS | MIN_ROWS | KEY_BLOCK_SIZE | AUTOEXTEND_SIZE
      | STATS_SAMPLE_PAGES | PAGE_COMPRESSION_LEVEL | ENCRYPTION_KEY_ID) EQ? optionValue  # numericOption
    | (CHECKSUM | TABLE_CHECKSUM | PAGE_CHECKSUM | DELAY_KEY_WRITE | PACK_KEYS | STATS_AUTO_RECALC
      | STATS_PERSISTENT | TRANSACTIONAL | PAGE_COMPRESSED | SEQUENCE) EQ? optionValue    # flagOption
    | ROW_FORMAT EQ? optionValue                                      # rowFormatOption
    | (COMPRESSION | CONNECTION | PASSWORD | ENCRYPTION | ENCRYPTED
      | ENGINE_ATTRIBUTE | SECONDARY_ENGINE_ATTRIBUTE) EQ? optionValue  # stringOption
    | (DATA | INDEX) DIRECTORY EQ? textLiteral                        # directoryOption
    | INSERT_METHOD EQ? optionValue                                   # insertMethodOption
    | TABLESPACE EQ? identifier                                       # tablespaceOption
    | STORAGE (DISK | MEMORY | DEFAULT)                               # storageOption
    | UNION EQ? LPAREN (tableName (COMMA tableName)*)? RPAREN         # unionOption
    | START TRANSACTION                                               # startTransactionOption
    | WITH SYSTEM VERSIONING                                          # systemVersioningOption
    | SECONDARY_ENGINE EQ? (identifier | NULL | textLiteral)          # secondaryEngineOption
    | (ID | BACKTICK_ID) EQ optionValue                               # engineDefinedOption
    ;

charsetClause: (CHARACTER SET | CHAR SET | CHARSET) EQ? charsetName;

optionValue: signedLiteral | identifier | DEFAULT | ON;

engineName: identifier | textLiteral;

// ---------------------------------------------------------------------------- partitioning
// partition_options (manual 15.1.20 and 26.2 "Partitioning Types"); MariaDB SYSTEM_TIME.

partitionClause
    : PARTITION BY partitionMethod (PARTITIONS DECIMAL_LITERAL)?
      (SUBPARTITION BY subpartitionMethod (SUBPARTITIONS DECIMAL_LITERAL)?)?
      (LPAREN partitionDefinition (COMMA partitionDefinition)* RPAREN)?
    ;

partitionMethod
    : LINEAR? HASH LPAREN expression RPAREN                                   # partitionByHash
    | LINEAR? KEY (ALGORITHM EQ DECIMAL_LITERAL)? LPAREN (columnName (COMMA columnName)*)? RPAREN  # partitionByKey
    | (RANGE | LIST) (LPAREN expression RPAREN | COLUMNS columnList)           # partitionByRangeList
    | SYSTEM_TIME (INTERVAL expression intervalUnit (STARTS expression)? | LIMIT DECIMAL_LITERAL)? AUTO?  # partitionBySystemTime
    ;

subpartitionMethod
    : LINEAR? HASH LPAREN expression RPAREN
    | LINEAR? KEY (ALGORITHM EQ DECIMAL_LITERAL)? LPAREN (columnName (COMMA columnName)*)? RPAREN
    ;

partitionDefinition
    : PARTITION identifier partitionValues? partitionOption*
      (LPAREN subpartitionDefinition (COMMA subpartitionDefinition)* RPAREN)?
    ;

partitionValues
    : VALUES LESS THAN (MAXVALUE | LPAREN partitionValue (COMMA partitionValue)* RPAREN)
    | VALUES IN LPAREN partitionValue (COMMA partitionValue)* RPAREN
    | DEFAULT
    | CURRENT
    | HISTORY
    ;

partitionValue: expression | MAXVALUE | DEFAULT;

partitionOption
    : STORAGE? ENGINE EQ? engineName
    | COMMENT EQ? textLiteral
    | (DATA | INDEX) DIRECTORY EQ? textLiteral
    | (MAX_ROWS | MIN_ROWS) EQ? DECIMAL_LITERAL
    | TABLESPACE EQ? identifier
    | NODEGROUP EQ? DECIMAL_LITERAL
    ;

subpartitionDefinition: SUBPARTITION identifier partitionOption*;

// ============================================================================ ALTER TABLE
// MySQL 8.4 manual 15.1.9 "ALTER TABLE Statement"; MariaDB "ALTER TABLE" (IF [NOT] EXISTS forms,
// WAIT/NOWAIT, system versioning, periods, CONVERT PARTITION).

alterTable
    : ALTER ONLINE? IGNORE? TABLE ifExists? tableName waitOption?
      (alterSpecification (COMMA alterSpecification)*)? partitionClause?
    ;

waitOption: WAIT DECIMAL_LITERAL | NOWAIT;

alterSpecification
    : tableOption+                                                                # alterTableOptions
    | ADD COLUMN? ifNotExists? columnDefinition columnPosition?                    # addColumn
    | ADD COLUMN? ifNotExists? LPAREN tableElement (COMMA tableElement)* RPAREN    # addColumns
    | ADD indexDefinition                                                         # addIndex
    | ADD tableConstraint                                                         # addConstraint
    | ADD periodDefinition                                                        # addPeriod
    | ADD SYSTEM VERSIONING                                                       # addSystemVersioning
    | DROP (CHECK | CONSTRAINT) ifExists? identifier                              # dropConstraint
    | ALTER (CHECK | CONSTRAINT) identifier constraintEnforcement                 # alterConstraint
    | ALGORITHM EQ? (DEFAULT | INSTANT | INPLACE | COPY | NOCOPY)                 # alterAlgorithm
    | ALTER COLUMN? columnName alterColumnAction                                  # alterColumn
    | ALTER (INDEX | KEY) ifExists? indexName (VISIBLE | INVISIBLE | NOT? IGNORED)  # alterIndexVisibility
    | CHANGE COLUMN? ifExists? columnName columnDefinition columnPosition?        # changeColumn
    | MODIFY COLUMN? ifExists? columnDefinition columnPosition?                   # modifyColumn
    | CONVERT TO charsetClause (COLLATE EQ? collationName)?                       # convertToCharset
    | (DISABLE | ENABLE) KEYS                                                     # enableKeys
    | (DISCARD | IMPORT) TABLESPACE                                               # tablespaceAction
    | DROP COLUMN? ifExists? columnName (RESTRICT | CASCADE)?                     # dropColumn
    | DROP (INDEX | KEY) ifExists? indexName                                      # dropIndexSpec
    | DROP PRIMARY KEY                                                            # dropPrimaryKey
    | DROP FOREIGN KEY ifExists? identifier (DOT identifier)?                     # dropForeignKey
    | DROP PERIOD FOR (SYSTEM_TIME | identifier)                                  # dropPeriod
    | DROP SYSTEM VERSIONING                                                      # dropSystemVersioning
    | FORCE                                                                       # forceRebuild
    | LOCK EQ? (DEFAULT | NONE | SHARED | EXCLUSIVE)                              # alterLock
    | ORDER BY orderByItem (COMMA orderByItem)*                                   # alterOrderBy
    | RENAME COLUMN ifExists? columnName TO columnName                            # renameColumn
    | RENAME (INDEX | KEY) ifExists? indexName TO indexName                       # renameIndex
    | RENAME (TO | AS)? tableName                                                 # renameTableSpec
    | (WITH | WITHOUT) VALIDATION                                                 # validationSpec
    | ADD PARTITION ifNotExists? LPAREN partitionDefinition (COMMA partitionDefinition)* RPAREN  # addPartition
    | ADD PARTITION PARTITIONS DECIMAL_LITERAL                                    # addPartition
    | DROP PARTITION ifExists? identifierList                                     # dropPartition
    | (DISCARD | IMPORT) PARTITION partitionNames TABLESPACE                      # partitionTablespace
    | TRUNCATE PARTITION partitionNames                                           # truncatePartition
    | COALESCE PARTITION DECIMAL_LITERAL                                          # coalescePartition
    | REORGANIZE PARTITION (identifierList INTO LPAREN partitionDefinition (COMMA partitionDefinition)* RPAREN)?  # reorganizePartition
    | EXCHANGE PARTITION identifier WITH TABLE tableName ((WITH | WITHOUT) VALIDATION)?  # exchangePartition
    | (ANALYZE | CHECK | OPTIMIZE | REBUILD | REPAIR) PARTITION partitionNames    # partitionMaintenance
    | REMOVE PARTITIONING                                                         # removePartitioning
    | UPGRADE PARTITIONING                                                        # upgradePartitioning
    | CONVERT PARTITION identifier TO TABLE tableName                             # convertPartitionToTable
    | CONVERT TABLE tableName TO partitionDefinition                              # convertTableToPartition
    ;

alterColumnAction
    : SET DEFAULT defaultValue
    | DROP DEFAULT
    | SET (VISIBLE | INVISIBLE)
    ;

columnPosition: FIRST | AFTER columnName;

partitionNames: identifierList | ALL;

// ============================================================================ DROP / RENAME / TRUNCATE

// DROP [TEMPORARY] TABLE [IF EXISTS] t [, t] ... [RESTRICT | CASCADE] (manual 15.1.32).
dropTable: DROP TEMPORARY? (TABLE | TABLES) ifExists? tableName (COMMA tableName)* waitOption? (RESTRICT | CASCADE)?;

// RENAME TABLE a TO b [, c TO d] ... (manual 15.1.36); several pairs express swaps.
renameTable: RENAME (TABLE | TABLES) ifExists? renamePair (COMMA renamePair)*;

renamePair: tableName waitOption? TO tableName;

truncateTable: TRUNCATE TABLE? tableName waitOption?;

// ============================================================================ DATABASE
// manual 15.1.12 CREATE DATABASE, 15.1.2 ALTER DATABASE, 15.1.24 DROP DATABASE.

createDatabase: CREATE orReplace? (DATABASE | SCHEMA) ifNotExists? identifier databaseOption*;

alterDatabase
    : ALTER (DATABASE | SCHEMA) identifier? databaseOption+
    | ALTER (DATABASE | SCHEMA) identifier UPGRADE DATA DIRECTORY NAME
    ;

databaseOption
    : DEFAULT? charsetClause
    | DEFAULT? COLLATE EQ? collationName
    | DEFAULT? ENCRYPTION EQ? textLiteral
    | READ ONLY EQ? optionValue
    | COMMENT EQ? textLiteral
    ;

dropDatabase: DROP (DATABASE | SCHEMA) ifExists? identifier;

// ============================================================================ INDEX
// manual 15.1.15 CREATE INDEX, 15.1.27 DROP INDEX; MariaDB OR REPLACE / IF [NOT] EXISTS.

createIndex
    : CREATE orReplace? ONLINE? (UNIQUE | FULLTEXT | SPATIAL)? INDEX ifNotExists? indexName indexType?
      ON tableName keyPartList (indexOption | indexLockAlgorithm)*
    ;

indexLockAlgorithm
    : ALGORITHM EQ? (DEFAULT | INSTANT | INPLACE | COPY | NOCOPY)
    | LOCK EQ? (DEFAULT | NONE | SHARED | EXCLUSIVE)
    | waitOption
    ;

dropIndex: DROP ONLINE? INDEX ifExists? indexName ON tableName indexLockAlgorithm*;

// ============================================================================ VIEW
// manual 15.1.23 CREATE VIEW, 15.1.11 ALTER VIEW, 15.1.35 DROP VIEW.

createView: CREATE orReplace? viewAttributes VIEW ifNotExists? tableName columnList? AS queryExpression viewCheckOption?;

alterView: ALTER viewAttributes VIEW tableName columnList? AS queryExpression viewCheckOption?;

viewAttributes: (ALGORITHM EQ (UNDEFINED | MERGE | TEMPTABLE))? definerClause? (SQL SECURITY (DEFINER | INVOKER))?;

viewCheckOption: WITH (CASCADED | LOCAL)? CHECK OPTION;

dropView: DROP VIEW ifExists? tableName (COMMA tableName)* (RESTRICT | CASCADE)?;

definerClause: DEFINER EQ userName;

// ============================================================================ SEQUENCE (MariaDB)
// MariaDB "CREATE SEQUENCE", "ALTER SEQUENCE", "DROP SEQUENCE".

createSequence: CREATE orReplace? TEMPORARY? SEQUENCE ifNotExists? tableName sequenceOption* createTableOptions?;

alterSequence: ALTER SEQUENCE ifExists? tableName sequenceOption+;

dropSequence: DROP TEMPORARY? SEQUENCE ifExists? tableName (COMMA tableName)*;

sequenceOption
    : AS dataType
    | INCREMENT (BY | EQ)? signedNumber
    | MINVALUE EQ? signedNumber
    | NO MINVALUE
    | NOMINVALUE
    | MAXVALUE EQ? signedNumber
    | NO MAXVALUE
    | NOMAXVALUE
    | START (WITH | EQ)? signedNumber
    | CACHE EQ? signedNumber
    | NOCACHE
    | CYCLE
    | NO CYCLE
    | NOCYCLE
    | RESTART ((WITH | EQ)? signedNumber)?
    ;

signedNumber: (PLUS | MINUS)? (DECIMAL_LITERAL | REAL_LITERAL);

// ============================================================================ TABLESPACE / SERVER
// Recognised with their option lists (manual 15.1.21, 15.1.10, 15.1.33; 15.1.18 CREATE SERVER).

createTablespace: CREATE UNDO? TABLESPACE identifier genericOption*;
alterTablespace: ALTER UNDO? TABLESPACE identifier genericOption*;
dropTablespace: DROP UNDO? TABLESPACE identifier genericOption*;

genericOption
    : (ADD | DROP | RENAME TO) (DATAFILE | identifier) textLiteral?
    | identifier EQ? optionValue
    | WAIT
    | NOWAIT
    | ENGINE EQ? engineName
    | COMMENT EQ? textLiteral
    | USE LOGFILE GROUP identifier
    | SET (ACTIVE | INACTIVE)
    | ENCRYPTION EQ? textLiteral
    ;

// manual 15.1.16 CREATE LOGFILE GROUP (NDB), recognised with generic options.
createLogfileGroup: CREATE LOGFILE GROUP identifier genericOption*;
alterLogfileGroup: ALTER LOGFILE GROUP identifier genericOption*;
dropLogfileGroup: DROP LOGFILE GROUP identifier genericOption*;

createServer: CREATE orReplace? SERVER ifNotExists? identifier FOREIGN DATA WRAPPER identifier serverOptions;
alterServer: ALTER SERVER identifier serverOptions;
dropServer: DROP SERVER ifExists? identifier;
serverOptions: OPTIONS LPAREN serverOption (COMMA serverOption)* RPAREN;
serverOption: (identifier | DATABASE | USER | PASSWORD | SOCKET | OWNER | PORT | HOST) (textLiteral | DECIMAL_LITERAL);

// ============================================================================ data types
// MySQL 8.4 manual chapter 13 "Data Types"; MariaDB INET4/INET6/UUID/VECTOR; 5.7-era
// synonyms (INT1..INT8, MIDDLEINT, LONG VARCHAR). Alternatives are keyed by their first token.

dataType
    : (TINYINT | SMALLINT | MEDIUMINT | MIDDLEINT | INT | INTEGER | BIGINT
      | INT1 | INT2 | INT3 | INT4 | INT8) fieldLength? numericAttribute*           # integerType
    | (DECIMAL | DEC | NUMERIC | FIXED) precision? numericAttribute*               # fixedPointType
    | (FLOAT | DOUBLE PRECISION? | REAL | FLOAT4 | FLOAT8) precision? numericAttribute*  # floatType
    | BIT fieldLength?                                                            # bitType
    | (BOOL | BOOLEAN)                                                            # boolType
    | SERIAL                                                                      # serialType
    | (DATE | YEAR fieldLength? | (TIME | TIMESTAMP | DATETIME) fieldLength?)      # temporalType
    | (CHAR | CHARACTER | NCHAR | NATIONAL (CHAR | CHARACTER)) VARYING? fieldLength? stringAttribute*  # charType
    | (VARCHAR | NVARCHAR | VARCHARACTER | NATIONAL VARCHAR | NCHAR VARCHAR) fieldLength stringAttribute*  # varcharType
    | LONG VARCHAR? stringAttribute*                                               # longTextType
    | LONG VARBINARY                                                               # longBinaryType
    | (BINARY | VARBINARY) fieldLength?                                           # binaryType
    | (TINYBLOB | BLOB fieldLength? | MEDIUMBLOB | LONGBLOB)                       # blobType
    | (TINYTEXT | TEXT fieldLength? | MEDIUMTEXT | LONGTEXT) stringAttribute*      # textType
    | (ENUM | SET) LPAREN textLiteral (COMMA textLiteral)* RPAREN stringAttribute*  # enumSetType
    | JSON                                                                        # jsonType
    | (GEOMETRY | POINT | LINESTRING | POLYGON | MULTIPOINT | MULTILINESTRING | MULTIPOLYGON
      | GEOMETRYCOLLECTION | GEOMCOLLECTION)                                       # spatialType
    | (INET4 | INET6 | UUID)                                                      # mariadbType
    | VECTOR fieldLength?                                                         # vectorType
    ;

fieldLength: LPAREN DECIMAL_LITERAL RPAREN;

// FLOAT(7.4) / DECIMAL(19.5): the server reads a decimal number as the precision.
precision: LPAREN (DECIMAL_LITERAL (COMMA DECIMAL_LITERAL)? | REAL_LITERAL) RPAREN;

numericAttribute: SIGNED | UNSIGNED | ZEROFILL;

// [CHARACTER SET cs] [COLLATE coll] [BINARY] [ASCII] [UNICODE] after string types (5.7 and 8.0).
stringAttribute: BINARY | ASCII | UNICODE | BYTE;

castCharsetAttribute: charsetClause | BINARY | ASCII | UNICODE;

// CAST/CONVERT target types (manual 14.10 "Cast Functions and Operators").
castType
    : BINARY fieldLength?
    | (CHAR | CHARACTER | NCHAR) fieldLength? castCharsetAttribute*
    | DATE
    | YEAR
    | (DATETIME | TIME | TIMESTAMP) fieldLength?
    | (DECIMAL | DEC | NUMERIC | FIXED) precision?
    | (SIGNED | UNSIGNED) (INTEGER | INT)?
    | (INTEGER | INT | BIGINT)
    | JSON
    | (FLOAT | DOUBLE | REAL) precision?
    | (GEOMETRY | POINT | LINESTRING | POLYGON | MULTIPOINT | MULTILINESTRING | MULTIPOLYGON
      | GEOMETRYCOLLECTION)
    | (VARCHAR | NVARCHAR) fieldLength castCharsetAttribute*
    | (INET4 | INET6 | UUID)
    ;

// ============================================================================ names

tableName: identifier (DOT identifier)?;
// MariaDB accepts a qualified (even '.'-prefixed) name where a column is defined.
columnName: DOT? identifier (DOT identifier (DOT identifier)?)?;
indexName: identifier;
identifierList: identifier (COMMA identifier)*;
qualifiedName: identifier (DOT identifier)*;
charsetName: identifier | textLiteral | BINARY | ASCII | DEFAULT;
collationName: identifier | textLiteral | BINARY;

// user@host (manual 8.2.4 "Specifying Account Names"): the lexer reads '@host' as one AT_ID token.
userName
    : (identifier | textLiteral) AT_ID?
    | CURRENT_USER (LPAREN RPAREN)?
    ;

// An identifier: plain, backticked, double-quoted under ANSI_QUOTES (DQ_IDENT is produced by the
// token filter in mysqlddl/ddl/lexing.py), or a keyword MySQL does not reserve.
identifier: ID | BACKTICK_ID | DQ_IDENT | keywordAsIdentifier;

// ============================================================================ literals

textLiteral
    : UNDERSCORE_CHARSET? (STRING | DQ_STRING) (STRING | DQ_STRING)*
    | NATIONAL_STRING (STRING | DQ_STRING)*
    ;

literal
    : textLiteral
    | UNDERSCORE_CHARSET? (HEX_LITERAL | BIT_LITERAL)
    | DECIMAL_LITERAL
    | REAL_LITERAL
    | TRUE
    | FALSE
    | NULL
    | NULL_ESCAPE
    | (DATE | TIME | TIMESTAMP) textLiteral
    ;

signedLiteral: (PLUS | MINUS)? literal;

// ============================================================================ expressions
// MySQL 8.4 manual 11.5 "Expressions": expr > boolean_primary > predicate > bit_expr > simple_expr.
// IS [NOT] TRUE/FALSE/UNKNOWN sits in booleanPrimary next to IS [NOT] NULL (the manual puts it one
// level up): with both at the expression level, every `x IS NULL` needed full-LL prediction.

expression
    : NOT expression                                                         # notExpr
    | expression (AND | LOGICAL_AND) expression                              # andExpr
    | expression XOR expression                                              # xorExpr
    | expression (OR | PIPES) expression                                     # orExpr
    | booleanPrimary                                                         # primaryExpr
    ;

booleanPrimary
    : booleanPrimary IS NOT? (NULL | NULL_ESCAPE)                            # isNullPredicate
    | booleanPrimary IS NOT? (TRUE | FALSE | UNKNOWN)                        # isTruthPredicate
    | booleanPrimary comparisonOperator predicate                            # comparisonPredicate
    | booleanPrimary comparisonOperator (ALL | ANY | SOME) LPAREN queryExpression RPAREN  # quantifiedComparison
    | predicate                                                              # predicatePrimary
    ;

comparisonOperator: EQ | NSEQ | NE | LT | LE | GT | GE;

predicate
    : bitExpr predicateSuffix?
    ;

// Left-factored: when every alternative began with bitExpr, choosing one meant looking past a
// whole operand, and the ATN simulation of that lookahead cost ~13 ms per new token sequence
// (measured with tools/bench_ddl.py: 77 DFA misses in this one decision took 1.0 s of a 1.6 s
// first pass over the conformance DDL; ANTLR-NOTES.md lesson 2). After the operand, the suffix
// is chosen by its first two tokens.
predicateSuffix
    : NOT? IN (LPAREN queryExpression RPAREN | LPAREN expression (COMMA expression)* RPAREN)  # inPredicate
    | NOT? BETWEEN bitExpr AND predicate                                     # betweenPredicate
    | SOUNDS LIKE bitExpr                                                    # soundsLikePredicate
    | NOT? LIKE simpleExpr (ESCAPE simpleExpr)?                              # likePredicate
    | NOT? (REGEXP | RLIKE) bitExpr                                          # regexpPredicate
    | MEMBER OF? LPAREN simpleExpr RPAREN                                    # memberOfPredicate
    ;

bitExpr
    : bitExpr CARET bitExpr                                                  # bitXorExpr
    | bitExpr (STAR | DIVIDE | PERCENT | DIV | MOD) bitExpr                  # mulExpr
    | bitExpr (PLUS | MINUS) bitExpr                                         # addExpr
    | bitExpr (PLUS | MINUS) INTERVAL expression intervalUnit                # intervalAddExpr
    | bitExpr (SHL | SHR) bitExpr                                            # shiftExpr
    | bitExpr AMP bitExpr                                                    # bitAndExpr
    | bitExpr PIPE bitExpr                                                   # bitOrExpr
    | simpleExpr                                                             # simpleBitExpr
    ;

simpleExpr
    : simpleExpr COLLATE collationName                                       # collateExpr
    | (PLUS | MINUS | TILDE | EXCL) simpleExpr                               # unaryExpr
    | BINARY simpleExpr                                                      # binaryExpr
    | literal                                                                # literalExpr
    | variable                                                               # variableExpr
    | QUESTION                                                               # paramMarker
    | functionCall                                                           # functionExpr
    | specialFunction                                                        # specialFunctionExpr
    | columnRef jsonPath?                                                    # columnRefExpr
    | LPAREN expression (COMMA expression)* RPAREN                           # parenExpr
    | ROW LPAREN expression (COMMA expression)+ RPAREN                       # rowExpr
    | LPAREN queryExpression RPAREN                                          # subqueryExpr
    | EXISTS LPAREN queryExpression RPAREN                                   # existsExpr
    | MATCH columnList AGAINST LPAREN bitExpr searchModifier? RPAREN         # matchExpr
    | MATCH LPAREN columnRef (COMMA columnRef)* RPAREN AGAINST LPAREN bitExpr searchModifier? RPAREN  # matchExpr
    | CASE expression? (WHEN expression THEN expression)+ (ELSE expression)? END  # caseExpr
    | INTERVAL expression intervalUnit PLUS bitExpr                          # intervalExpr
    | LBRACE identifier expression RBRACE                                    # odbcExpr
    | sequenceValue                                                          # sequenceExpr
    | currentTimestamp                                                       # currentTimestampExpr
    | DEFAULT LPAREN columnRef RPAREN                                        # defaultFunctionExpr
    | VALUES LPAREN columnRef RPAREN                                         # valuesFunctionExpr
    ;

jsonPath: (ARROW | ARROW2) textLiteral;

searchModifier
    : IN NATURAL LANGUAGE MODE (WITH QUERY EXPANSION)?
    | IN BOOLEAN MODE
    | WITH QUERY EXPANSION
    ;

sequenceValue: (NEXT | PREVIOUS) VALUE FOR tableName;

columnRef: identifier (DOT identifier (DOT identifier)?)?;

variable: AT_ID (ASSIGN expression)? | GLOBAL_ID;

intervalUnit
    : MICROSECOND | SECOND | MINUTE | HOUR | DAY | WEEK | MONTH | QUARTER | YEAR
    | SECOND_MICROSECOND | MINUTE_MICROSECOND | MINUTE_SECOND | HOUR_MICROSECOND | HOUR_SECOND
    | HOUR_MINUTE | DAY_MICROSECOND | DAY_SECOND | DAY_MINUTE | DAY_HOUR | YEAR_MONTH
    ;

// Generic calls: name(args). Keyword-named functions that are reserved are listed in functionName.
functionCall
    : functionName LPAREN (ALL | DISTINCT)? (STAR | functionArg (COMMA functionArg)*)? orderByClause?
      (SEPARATOR textLiteral)? (USING charsetName)? RPAREN overClause?
    | identifier DOT identifier LPAREN (functionArg (COMMA functionArg)*)? RPAREN
    ;

// A bare INTERVAL is an argument of DATE_ADD/DATE_SUB/ADDDATE/SUBDATE.
functionArg: expression | INTERVAL expression intervalUnit;

functionName
    : identifier | IF | LEFT | RIGHT | REPLACE | INSERT | DATABASE | SCHEMA | MOD | REPEAT | CHAR
    ;

specialFunction
    : CAST LPAREN expression AS castType (ARRAY)? RPAREN                                   # castFunction
    | CONVERT LPAREN expression COMMA castType RPAREN                                     # convertFunction
    | CONVERT LPAREN expression USING charsetName RPAREN                                  # convertUsingFunction
    | EXTRACT LPAREN intervalUnit FROM expression RPAREN                                  # extractFunction
    | POSITION LPAREN bitExpr IN expression RPAREN                                        # positionFunction
    | (SUBSTRING | SUBSTR) LPAREN expression FROM expression (FOR expression)? RPAREN   # substringFunction
    | TRIM LPAREN ((BOTH | LEADING | TRAILING) expression? FROM expression | expression FROM expression) RPAREN  # trimFunction
    | WEIGHT_STRING LPAREN expression AS (CHAR | BINARY) fieldLength RPAREN              # weightStringFunction
    | JSON_VALUE LPAREN expression COMMA expression (RETURNING castType jsonOnClause* | jsonOnClause+) RPAREN  # jsonValueFunction
    | CURRENT_USER (LPAREN RPAREN)?                                                      # currentUserFunction
    ;

jsonOnClause: (NULL | ERROR | DEFAULT expression) ON (EMPTY | ERROR);

overClause: OVER (LPAREN windowSpec RPAREN | identifier);

windowSpec: identifier? (PARTITION BY expression (COMMA expression)*)? orderByClause? windowFrame?;

windowFrame: (ROWS | RANGE) (BETWEEN frameBound AND frameBound | frameBound);

frameBound: CURRENT ROW | UNBOUNDED (PRECEDING | FOLLOWING) | expression (PRECEDING | FOLLOWING) | INTERVAL expression intervalUnit (PRECEDING | FOLLOWING);

// ============================================================================ SELECT
// MySQL 8.4 manual 15.2.13 "SELECT Statement", 15.2.18 UNION, 15.2.20 WITH, 15.2.19 VALUES.

queryExpression: withClause? queryBody orderByClause? limitClause? (intoClause | lockingClause)*;

withClause: WITH RECURSIVE? commonTableExpression (COMMA commonTableExpression)*;

commonTableExpression: identifier columnList? AS LPAREN queryExpression RPAREN;

queryBody: queryTerm ((UNION | EXCEPT | INTERSECT) (ALL | DISTINCT)? queryTerm)*;

queryTerm
    : querySpecification
    | LPAREN queryExpression RPAREN
    | TABLE tableName
    | VALUES rowValue (COMMA rowValue)*
    ;

rowValue: ROW? LPAREN (rowItem (COMMA rowItem)*)? RPAREN;

rowItem: expression | DEFAULT;

querySpecification
    : SELECT selectOption* selectList intoClause?
      fromClause? whereClause? groupByClause? havingClause? windowClause?
    ;

selectOption
    : ALL | DISTINCT | DISTINCTROW | HIGH_PRIORITY | STRAIGHT_JOIN | SQL_SMALL_RESULT | SQL_BIG_RESULT
    | SQL_BUFFER_RESULT | SQL_CACHE | SQL_NO_CACHE | SQL_CALC_FOUND_ROWS
    ;

selectList: selectItem (COMMA selectItem)*;

selectItem
    : STAR
    | identifier DOT (identifier DOT)? STAR
    | expression selectAlias?
    ;

selectAlias: AS? (identifier | textLiteral);

intoClause
    : INTO (variable | identifier) (COMMA (variable | identifier))*
    | INTO OUTFILE textLiteral (charsetClause)? exportOptions?
    | INTO DUMPFILE textLiteral
    ;

exportOptions
    : ((FIELDS | COLUMNS) (TERMINATED BY textLiteral | OPTIONALLY? ENCLOSED BY textLiteral | ESCAPED BY textLiteral)+)?
      (LINES (STARTING BY textLiteral | TERMINATED BY textLiteral)+)?
    ;

fromClause: FROM (DUAL | tableReferences);

tableReferences: tableReference (COMMA tableReference)*;

tableReference: tableFactor joinedTable*;

tableFactor
    : tableName (PARTITION LPAREN identifierList RPAREN)? tableAlias? indexHint*
    | LATERAL? LPAREN queryExpression RPAREN tableAlias? columnList?
    | LPAREN tableReferences RPAREN
    | JSON_TABLE LPAREN expression COMMA textLiteral jsonColumns RPAREN tableAlias?
    ;

jsonColumns: COLUMNS LPAREN jsonColumn (COMMA jsonColumn)* RPAREN;

jsonColumn
    : identifier FOR ORDINALITY
    | identifier dataType EXISTS? PATH textLiteral jsonOnClause*
    | NESTED PATH? textLiteral jsonColumns
    ;

tableAlias: AS? identifier;

indexHint: (USE | IGNORE | FORCE) (INDEX | KEY) (FOR (JOIN | ORDER BY | GROUP BY))? LPAREN (identifier (COMMA identifier)* | PRIMARY)? RPAREN;

joinedTable
    : (INNER | CROSS)? JOIN tableFactor joinCondition?
    | STRAIGHT_JOIN tableReference (ON expression)?
    | (LEFT | RIGHT) OUTER? JOIN tableReference joinCondition
    | NATURAL (INNER | (LEFT | RIGHT) OUTER?)? JOIN tableFactor
    ;

joinCondition: ON expression | USING columnList;

whereClause: WHERE expression;

groupByClause: GROUP BY orderByItem (COMMA orderByItem)* (WITH ROLLUP)?;

havingClause: HAVING expression;

windowClause: WINDOW identifier AS LPAREN windowSpec RPAREN (COMMA identifier AS LPAREN windowSpec RPAREN)*;

orderByClause: ORDER BY orderByItem (COMMA orderByItem)*;

orderByItem: expression (ASC | DESC)?;

limitClause: LIMIT limitValue ((COMMA | OFFSET) limitValue)? | LIMIT ROWS EXAMINED limitValue;

limitValue: DECIMAL_LITERAL | QUESTION | identifier | AT_ID;

lockingClause
    : FOR (UPDATE | SHARE) (OF tableName (COMMA tableName)*)? (NOWAIT | SKIP_ LOCKED | WAIT DECIMAL_LITERAL)?
    | LOCK IN SHARE MODE waitOption?
    ;

// ============================================================================ DML
// manual 15.2.7 INSERT, 15.2.12 REPLACE, 15.2.17 UPDATE, 15.2.2 DELETE, 15.2.9 LOAD DATA,
// 15.2.1 CALL, 15.2.3 DO; MariaDB RETURNING.

dmlStatement
    : queryExpression
    | insertStatement
    | replaceStatement
    | updateStatement
    | deleteStatement
    | loadDataStatement
    | callStatement
    | doStatement
    | handlerStatement
    ;

insertStatement
    : INSERT (LOW_PRIORITY | DELAYED | HIGH_PRIORITY)? IGNORE? INTO? tableName
      (PARTITION LPAREN identifierList RPAREN)? insertSource
      (AS identifier columnList?)?
      (ON DUPLICATE KEY UPDATE assignmentList)? returningClause?
    ;

replaceStatement
    : REPLACE (LOW_PRIORITY | DELAYED)? INTO? tableName (PARTITION LPAREN identifierList RPAREN)? insertSource returningClause?
    ;

insertSource
    : (LPAREN (columnName (COMMA columnName)*)? RPAREN)? (VALUES | VALUE) rowValue (COMMA rowValue)*
    | SET assignmentList
    | (LPAREN (columnName (COMMA columnName)*)? RPAREN)? queryExpression
    ;

assignmentList: assignment (COMMA assignment)*;

assignment: columnRef EQ (expression | DEFAULT);

returningClause: RETURNING selectList;

updateStatement
    : withClause? UPDATE LOW_PRIORITY? IGNORE? tableReferences SET assignmentList whereClause? orderByClause? limitClause?
    ;

deleteStatement
    : withClause? DELETE LOW_PRIORITY? QUICK? IGNORE?
      ( FROM tableName tableAlias? (PARTITION LPAREN identifierList RPAREN)? whereClause? orderByClause? limitClause? returningClause?
      | deleteTarget (COMMA deleteTarget)* FROM tableReferences whereClause?
      | FROM deleteTarget (COMMA deleteTarget)* USING tableReferences whereClause?
      )
    ;

deleteTarget: identifier (DOT identifier)? (DOT STAR)?;

loadDataStatement
    : LOAD (DATA | XML) (LOW_PRIORITY | CONCURRENT)? LOCAL? INFILE textLiteral (REPLACE | IGNORE)?
      INTO TABLE tableName (PARTITION LPAREN identifierList RPAREN)? charsetClause?
      (ROWS IDENTIFIED BY textLiteral)? exportOptions (IGNORE DECIMAL_LITERAL (LINES | ROWS))?
      (LPAREN (loadColumn (COMMA loadColumn)*)? RPAREN)? (SET assignmentList)?
    ;

loadColumn: columnRef | AT_ID;

callStatement: CALL qualifiedName (LPAREN (expression (COMMA expression)*)? RPAREN)?;

doStatement: DO expression (COMMA expression)*;

handlerStatement
    : HANDLER tableName OPEN tableAlias?
    | HANDLER identifier READ identifier? (FIRST | NEXT | PREV | LAST | comparisonOperator LPAREN expression (COMMA expression)* RPAREN)? whereClause? limitClause?
    | HANDLER identifier CLOSE
    ;

// ============================================================================ transactions, XA, locks
// manual 15.3.1 START TRANSACTION/COMMIT/ROLLBACK, 15.3.4 SAVEPOINT, 15.3.6 LOCK TABLES, 15.3.8 XA.

transactionStatement
    : START TRANSACTION (transactionCharacteristic (COMMA transactionCharacteristic)*)?    # startTransaction
    | BEGIN WORK?                                                                          # beginWork
    | COMMIT WORK? (AND NO? CHAIN)? (NO? RELEASE)?                                        # commitWork
    | ROLLBACK WORK? (AND NO? CHAIN)? (NO? RELEASE)?                                      # rollbackWork
    | ROLLBACK WORK? TO SAVEPOINT? identifier                                             # rollbackToSavepoint
    | SAVEPOINT identifier                                                                # savepointStatement
    | RELEASE SAVEPOINT identifier                                                        # releaseSavepoint
    | LOCK (TABLES | TABLE) lockTableItem (COMMA lockTableItem)* waitOption?              # lockTables
    | UNLOCK (TABLES | TABLE)                                                             # unlockTables
    | LOCK INSTANCE FOR BACKUP                                                            # lockInstance
    | UNLOCK INSTANCE                                                                     # unlockInstance
    | XA (START | BEGIN) xid (JOIN | RESUME)?                                             # xaStart
    | XA END xid (SUSPEND (FOR MIGRATE)?)?                                                # xaEnd
    | XA PREPARE xid                                                                      # xaPrepare
    | XA COMMIT xid (ONE PHASE)?                                                          # xaCommit
    | XA ROLLBACK xid                                                                     # xaRollback
    | XA RECOVER (CONVERT XID)?                                                           # xaRecover
    ;

transactionCharacteristic: WITH CONSISTENT SNAPSHOT | READ WRITE | READ ONLY;

lockTableItem: tableName tableAlias? (READ LOCAL? | LOW_PRIORITY? WRITE CONCURRENT?);

xid: xidPart (COMMA xidPart (COMMA DECIMAL_LITERAL)?)?;
xidPart: textLiteral | HEX_LITERAL | BIT_LITERAL | DECIMAL_LITERAL | identifier;

// ============================================================================ accounts
// manual 15.7.1 "Account Management Statements"; MariaDB IDENTIFIED VIA.

accountStatement
    : CREATE orReplace? USER ifNotExists? userSpecification (COMMA userSpecification)* userOption*  # createUser
    | ALTER USER ifExists? userSpecification (COMMA userSpecification)* userOption*                 # alterUser
    | DROP USER ifExists? userName (COMMA userName)*                                                # dropUser
    | RENAME USER userName TO userName (COMMA userName TO userName)*                                # renameUser
    | CREATE orReplace? ROLE ifNotExists? userName (COMMA userName)* (WITH ADMIN userName)?        # createRole
    | DROP ROLE ifExists? userName (COMMA userName)*                                                # dropRole
    | GRANT privilegeList ON privilegeObject TO userSpecification (COMMA userSpecification)* userOption* grantTail*  # grantPrivileges
    | GRANT PROXY ON userName TO userName (COMMA userName)* (WITH GRANT OPTION)?                    # grantProxy
    | GRANT roleList TO userName (COMMA userName)* (WITH ADMIN OPTION)?                              # grantRoles
    | REVOKE ifExists? privilegeList ON privilegeObject FROM userName (COMMA userName)* (IGNORE UNKNOWN USER)?  # revokePrivileges
    | REVOKE ifExists? ALL PRIVILEGES? COMMA GRANT OPTION FROM userName (COMMA userName)*         # revokeAll
    | REVOKE PROXY ON userName FROM userName (COMMA userName)*                                       # revokeProxy
    | REVOKE ifExists? (ADMIN OPTION FOR)? roleList FROM userName (COMMA userName)*                  # revokeRoles
    | SET PASSWORD (FOR userName)? EQ (textLiteral | PASSWORD LPAREN textLiteral RPAREN) (REPLACE textLiteral)? (RETAIN CURRENT PASSWORD)?  # setPassword
    | SET DEFAULT ROLE (NONE | ALL | roleList) (FOR userName)? (TO userName (COMMA userName)*)?    # setDefaultRole
    | SET ROLE (DEFAULT | NONE | ALL (EXCEPT roleList)? | roleList)                                # setRole
    ;

userSpecification: userName authOption?;

authOption
    : IDENTIFIED BY PASSWORD? textLiteral (REPLACE textLiteral)? (RETAIN CURRENT PASSWORD)?
    | IDENTIFIED BY RANDOM PASSWORD (REPLACE textLiteral)? (RETAIN CURRENT PASSWORD)?
    // MySQL 8 binlogs write the stored hash as a hex literal: IDENTIFIED WITH 'caching_sha2_password' AS 0x2441...
    | IDENTIFIED (WITH | VIA) authPlugin ((BY | USING | AS) (textLiteral | HEX_LITERAL | RANDOM PASSWORD | PASSWORD LPAREN textLiteral RPAREN))?
      (REPLACE textLiteral)? (RETAIN CURRENT PASSWORD)?
      (OR authPlugin ((BY | USING | AS) (textLiteral | PASSWORD LPAREN textLiteral RPAREN))?)*
    | DISCARD OLD PASSWORD
    ;

userOption
    : DEFAULT ROLE roleList
    | REQUIRE (NONE | tlsOption (AND? tlsOption)*)
    | WITH resourceOption+
    | PASSWORD EXPIRE (DEFAULT | NEVER | INTERVAL DECIMAL_LITERAL DAY)?
    | PASSWORD HISTORY (DEFAULT | DECIMAL_LITERAL)
    | PASSWORD REUSE INTERVAL (DEFAULT | DECIMAL_LITERAL DAY)
    | PASSWORD REQUIRE CURRENT (DEFAULT | OPTIONAL)?
    | FAILED_LOGIN_ATTEMPTS DECIMAL_LITERAL
    | PASSWORD_LOCK_TIME (DECIMAL_LITERAL | UNBOUNDED)
    | ACCOUNT (LOCK | UNLOCK)
    | (COMMENT | ATTRIBUTE) textLiteral
    ;

authPlugin: identifier | textLiteral;

tlsOption: SSL | X509 | CIPHER textLiteral | ISSUER textLiteral | SUBJECT textLiteral;

resourceOption
    : (MAX_QUERIES_PER_HOUR | MAX_UPDATES_PER_HOUR | MAX_CONNECTIONS_PER_HOUR | MAX_USER_CONNECTIONS
      | MAX_STATEMENT_TIME) (DECIMAL_LITERAL | REAL_LITERAL)
    | GRANT OPTION
    | ADMIN OPTION
    ;

grantTail: AS userName (WITH ROLE (DEFAULT | NONE | ALL (EXCEPT roleList)? | roleList))?;

roleList: userName (COMMA userName)*;

privilegeList: privilege (COMMA privilege)*;

privilege: privilegeWord+ columnList?;

// Privilege names are keyword sequences (ALTER ROUTINE, CREATE TEMPORARY TABLES, ...) or dynamic
// privilege identifiers (BACKUP_ADMIN); the list is closed by ON/TO, so a word loop is unambiguous.
privilegeWord
    : identifier | textLiteral | ALL | PRIVILEGES | SELECT | INSERT | UPDATE | DELETE | CREATE | DROP | ALTER | INDEX
    | GRANT | OPTION | SHOW | LOCK | TABLES | REFERENCES | EXECUTE | TRIGGER | EVENT | FILE | PROCESS
    | RELOAD | SHUTDOWN | SUPER | USAGE | REPLICATION | SLAVE | CLIENT | VIEW | ROUTINE | TEMPORARY
    | DATABASES | TABLESPACE | USER | ROLE | PROXY | BINLOG | MONITOR | ADMIN | HISTORY | LOAD | FROM | INTO | READ
    ;

privilegeObject
    : (TABLE | FUNCTION | PROCEDURE | PACKAGE BODY?)?
      (STAR (DOT STAR)? | identifier DOT STAR | identifier (DOT identifier)?)
    ;

// ============================================================================ routines, triggers, events
// manual 15.1.17 CREATE PROCEDURE/FUNCTION, 15.1.22 CREATE TRIGGER, 15.1.13 CREATE EVENT,
// 15.6 "Compound Statement Syntax".

routineStatement
    : createProcedure
    | createFunction
    | createTrigger
    | createEvent
    | alterRoutine
    | alterEvent
    | dropRoutine
    | compoundStatement
    | signalStatement
    | getDiagnostics
    ;

// SIGNAL/RESIGNAL and GET DIAGNOSTICS are allowed outside stored programs too (manual 15.6.7).
signalStatement: (SIGNAL | RESIGNAL) (SQLSTATE VALUE? textLiteral | identifier)? (SET signalItem (COMMA signalItem)*)?;

getDiagnostics: GET (CURRENT | STACKED)? DIAGNOSTICS (CONDITION expression)? diagnosticsItem (COMMA diagnosticsItem)*;

createProcedure
    : CREATE orReplace? definerClause? PROCEDURE ifNotExists? qualifiedName
      LPAREN (procedureParameter (COMMA procedureParameter)*)? RPAREN routineCharacteristic* routineBody
    ;

createFunction
    : CREATE orReplace? definerClause? AGGREGATE? FUNCTION ifNotExists? qualifiedName
      ( LPAREN (functionParameter (COMMA functionParameter)*)? RPAREN RETURNS dataType (charsetClause | COLLATE collationName)*
        routineCharacteristic* routineBody
      | RETURNS (STRING_KW | INTEGER | REAL | DECIMAL) SONAME textLiteral
      )
    ;

procedureParameter: (IN | OUT | INOUT)? identifier dataType;
functionParameter: identifier dataType;

routineCharacteristic
    : COMMENT textLiteral
    | LANGUAGE SQL
    | NOT? DETERMINISTIC
    | CONTAINS SQL
    | NO SQL
    | READS SQL DATA
    | MODIFIES SQL DATA
    | SQL SECURITY (DEFINER | INVOKER)
    ;

routineBody: procedureStatement;

createTrigger
    : CREATE orReplace? definerClause? TRIGGER ifNotExists? qualifiedName (BEFORE | AFTER) (INSERT | UPDATE | DELETE)
      ON tableName FOR EACH ROW ((FOLLOWS | PRECEDES) identifier)? routineBody
    ;

createEvent
    : CREATE orReplace? definerClause? EVENT ifNotExists? qualifiedName ON SCHEDULE eventSchedule
      (ON COMPLETION NOT? PRESERVE)? (ENABLE | DISABLE (ON (SLAVE | REPLICA))?)? (COMMENT textLiteral)? DO routineBody
    ;

alterEvent
    : ALTER definerClause? EVENT qualifiedName (ON SCHEDULE eventSchedule)? (ON COMPLETION NOT? PRESERVE)?
      (RENAME TO qualifiedName)? (ENABLE | DISABLE (ON (SLAVE | REPLICA))?)? (COMMENT textLiteral)? (DO routineBody)?
    ;

eventSchedule
    : AT expression
    | EVERY expression intervalUnit (STARTS expression)? (ENDS expression)?
    ;

alterRoutine: ALTER (PROCEDURE | FUNCTION) qualifiedName routineCharacteristic*;

dropRoutine
    : DROP (PROCEDURE | FUNCTION | TRIGGER | EVENT) ifExists? qualifiedName
    ;

// BEGIN ... END and the flow-control statements (manual 15.6). A top-level BEGIN is a transaction,
// so compound bodies appear at top level only as MariaDB's BEGIN NOT ATOMIC or labelled blocks.
compoundStatement
    : BEGIN NOT ATOMIC compoundBody END
    ;

procedureStatement
    : (identifier COLON)? BEGIN compoundBody END identifier?
    | ifStatement
    | caseStatement
    | (identifier COLON)? LOOP compoundBody END LOOP identifier?
    | (identifier COLON)? WHILE expression DO compoundBody END WHILE identifier?
    | (identifier COLON)? REPEAT compoundBody UNTIL expression END REPEAT identifier?
    | declareStatement
    | LEAVE identifier
    | ITERATE identifier
    | RETURN expression
    | OPEN identifier
    | CLOSE identifier
    | FETCH (NEXT? FROM)? identifier INTO variableTarget (COMMA variableTarget)*
    | sqlStatement
    ;

variableTarget: identifier | AT_ID;

signalItem: identifier EQ expression;

diagnosticsItem: (identifier | AT_ID) EQ identifier;

compoundBody: (procedureStatement SEMI)*;

ifStatement: IF expression THEN compoundBody (ELSEIF expression THEN compoundBody)* (ELSE compoundBody)? END IF;

caseStatement: CASE expression? (WHEN expression THEN compoundBody)+ (ELSE compoundBody)? END CASE;

declareStatement
    : DECLARE identifier (COMMA identifier)* dataType (DEFAULT expression)?
    | DECLARE identifier CONDITION FOR (DECIMAL_LITERAL | SQLSTATE VALUE? textLiteral)
    | DECLARE identifier CURSOR FOR queryExpression
    | DECLARE (CONTINUE | EXIT | UNDO) HANDLER FOR handlerCondition (COMMA handlerCondition)* procedureStatement
    ;

handlerCondition: DECIMAL_LITERAL | SQLSTATE VALUE? textLiteral | identifier | SQLWARNING | NOT FOUND | SQLEXCEPTION;

// ============================================================================ administration
// manual 15.7.3 table maintenance, 15.7.8 FLUSH/KILL/..., 15.5 prepared statements, 15.7.7 SHOW,
// 15.8 utility statements; replication statements as far as they appear in dumps.

adminStatement
    : (ANALYZE | OPTIMIZE | REPAIR | CHECK | CHECKSUM) (NO_WRITE_TO_BINLOG | LOCAL)? (TABLE | TABLES) tableName (COMMA tableName)* waitOption? adminTail*  # tableMaintenance
    | FLUSH (NO_WRITE_TO_BINLOG | LOCAL)? flushOption (COMMA flushOption)*          # flushStatement
    | KILL (HARD | SOFT)? (CONNECTION | QUERY ID?)? expression                    # killStatement
    | KILL (HARD | SOFT)? USER userName                                             # killUser
    | PREPARE identifier FROM (textLiteral | AT_ID)                                 # prepareStatement
    | EXECUTE identifier (USING AT_ID (COMMA AT_ID)*)?                              # executeStatement
    | (DEALLOCATE | DROP) PREPARE identifier                                        # deallocateStatement
    | SHOW showTail                                                                 # showStatement
    | (EXPLAIN | DESCRIBE | DESC) explainTail                                       # explainStatement
    | HELP textLiteral                                                              # helpStatement
    | BINLOG textLiteral                                                            # binlogStatement
    | PURGE (BINARY | MASTER) LOGS (TO textLiteral | BEFORE expression)             # purgeLogs
    | RESET resetOption (COMMA resetOption)*                                        # resetStatement
    | (START | STOP) (SLAVE | REPLICA | REPLICAS | SLAVES | ALL SLAVES | GROUP_REPLICATION) anyTokens?  # replicationControl
    | CHANGE (MASTER | REPLICATION SOURCE) textLiteral? TO replicationOption (COMMA replicationOption)* channelClause?  # changeReplication
    | CHANGE REPLICATION FILTER replicationOption (COMMA replicationOption)* channelClause?  # changeReplicationFilter
    | INSTALL (PLUGIN identifier SONAME textLiteral | SONAME textLiteral | COMPONENT textLiteral (COMMA textLiteral)*)  # installStatement
    | UNINSTALL (PLUGIN identifier | SONAME textLiteral | COMPONENT textLiteral (COMMA textLiteral)*)  # uninstallStatement
    | CACHE INDEX tableName (COMMA tableName)* IN identifier                        # cacheIndex
    | LOAD INDEX INTO CACHE tableName (COMMA tableName)* (IGNORE LEAVES)?           # loadIndex
    | SHUTDOWN                                                                      # shutdownStatement
    | RESTART                                                                       # restartStatement
    // Server administration that never changes a schema model; recognised as a keyword run
    // (manual 15.1.5 ALTER INSTANCE, 15.7.5 CLONE, 15.2.6 IMPORT TABLE, 15.7.2 resource groups,
    // 15.1.19 CREATE SPATIAL REFERENCE SYSTEM; MariaDB BACKUP STAGE/LOCK).
    | ALTER INSTANCE anyTokens                                                      # alterInstance
    | CLONE anyTokens                                                               # cloneStatement
    | IMPORT TABLE FROM anyTokens                                                   # importTable
    | (CREATE | ALTER | DROP) RESOURCE GROUP anyTokens                              # resourceGroup
    | SET RESOURCE GROUP anyTokens                                                  # setResourceGroup
    | (CREATE orReplace? | DROP) SPATIAL REFERENCE SYSTEM anyTokens                 # spatialReferenceSystem
    | BACKUP (STAGE | LOCK | UNLOCK) anyTokens?                                     # backupStatement
    ;

adminTail: QUICK | EXTENDED | USE_FRM | FAST | MEDIUM | CHANGED | FOR UPGRADE | UPDATE HISTOGRAM ON identifierList (WITH DECIMAL_LITERAL BUCKETS)? | DROP HISTOGRAM ON identifierList | PERSISTENT FOR (ALL | COLUMNS columnList? INDEXES columnList?);

flushOption
    : (BINARY | ENGINE | ERROR | GENERAL | SLOW | RELAY) LOGS channelClause?
    | (TABLES | TABLE) (tableName (COMMA tableName)*)? (WITH READ LOCK | FOR EXPORT)?
    | QUERY CACHE
    | identifier
    ;

resetOption: MASTER (TO DECIMAL_LITERAL)? | SLAVE ALL? | REPLICA ALL? | QUERY CACHE | BINARY LOGS AND GTIDS | identifier;

replicationOption: identifier EQ (signedLiteral | identifier | LPAREN (expression (COMMA expression)*)? RPAREN);

channelClause: FOR CHANNEL (identifier | textLiteral);

// SHOW, EXPLAIN and replica control do not change schema; they are recognised as a token run.
showTail: anyTokens;
explainTail: anyTokens;
anyTokens: ~(SEMI | EOF)+;

// ============================================================================ SET / USE
// manual 15.7.6 "SET Statements"; MariaDB SET STATEMENT ... FOR.

setStatement
    : SET setAssignment (COMMA setAssignment)*                                      # setVariables
    | SET (GLOBAL | SESSION | LOCAL)? TRANSACTION transactionOption (COMMA transactionOption)*  # setTransaction
    | SET STATEMENT setAssignment (COMMA setAssignment)* FOR sqlStatement          # setStatementFor
    ;

setAssignment
    : (GLOBAL | SESSION | LOCAL | PERSIST | PERSIST_ONLY)? qualifiedName (EQ | ASSIGN) setValue
    | GLOBAL_ID (EQ | ASSIGN) setValue
    | AT_ID (EQ | ASSIGN) expression
    | (NAMES (charsetName (COLLATE collationName)?) )
    | (CHARACTER SET | CHARSET) charsetName
    ;

setValue: expression | ON | ALL | BINARY | DEFAULT;

transactionOption: ISOLATION LEVEL (REPEATABLE READ | READ COMMITTED | READ UNCOMMITTED | SERIALIZABLE) | READ WRITE | READ ONLY;

useStatement: USE identifier;

// ============================================================================ keywords as identifiers
// Every keyword token of MySqlLexer that neither MySQL 8.4 nor MariaDB 11 reserves (manual 11.3
// "Keywords and Reserved Words"). One flat token set: single-token alternatives, no actions.

keywordAsIdentifier
    : ACCOUNT | ACTION | ACTIVE | ADMIN | AFTER | AGAINST | AGGREGATE | ALGORITHM | ALWAYS | ARRAY
    | ASCII | AT | ATOMIC | ATTRIBUTE | AUTO | AUTOEXTEND_SIZE | AUTO_INCREMENT | AVG_ROW_LENGTH
    | BACKUP | BEGIN | BINLOG | BIT | BODY | BOOL | BOOLEAN | BTREE | BUCKETS | BYTE | CACHE | CASCADED
    | CAST | CHAIN | CHANGED | CHANNEL | CHARSET | CHECKSUM | CIPHER | CLIENT | CLONE | CLOSE
    | CLUSTERING | COALESCE | COLUMNS | COLUMN_FORMAT | COMMENT | COMMIT | COMMITTED | COMPLETION
    | COMPONENT | COMPRESSED | COMPRESSION | CONCURRENT | CONNECTION | CONSISTENT | CONTAINS | COPY
    | CURRENT | CYCLE | DATA | DATAFILE | DATE | DATETIME | DAY | DEALLOCATE | DEFINER | DELAY_KEY_WRITE
    | DIAGNOSTICS | DIRECTORY | DISABLE | DISCARD | DISK | DO | DUMPFILE | DUPLICATE | DYNAMIC | EMPTY
    | ENABLE | ENCRYPTED | ENCRYPTION | ENCRYPTION_KEY_ID | END | ENDS | ENFORCED | ENGINE
    | ENGINE_ATTRIBUTE | ENUM | ERROR | ESCAPE | EVENT | EVERY | EXAMINED | EXCHANGE | EXCLUSIVE
    | EXECUTE | EXPANSION | EXPIRE | EXPORT | EXTENDED | EXTRACT | FAILED_LOGIN_ATTEMPTS | FAST | FIELDS
    | FILE | FILTER | FIRST | FIXED | FLUSH | FOLLOWING | FOLLOWS | FOUND | FULL | GENERAL
    | GEOMCOLLECTION | GEOMETRY | GEOMETRYCOLLECTION | GLOBAL | GROUP_REPLICATION | GTIDS | HANDLER
    | HARD | HASH | HELP | HISTOGRAM | HISTORY | HOST | HOUR | IDENTIFIED | IGNORED | IMPORT | INACTIVE
    | INCREMENT | INDEXES | INET4 | INET6 | INPLACE | INSERT_METHOD | INSTALL | INSTANCE | INSTANT
    | INVISIBLE | INVOKER | ISOLATION | ISSUER | JSON | JSON_TABLE | JSON_VALUE | KEY_BLOCK_SIZE
    | LANGUAGE | LAST | LEAVES | LESS | LEVEL | LINESTRING | LIST | LOCAL | LOCKED | LOGFILE | LOGS
    | MASTER | MAX_CONNECTIONS_PER_HOUR | MAX_QUERIES_PER_HOUR | MAX_ROWS | MAX_STATEMENT_TIME
    | MAX_UPDATES_PER_HOUR | MAX_USER_CONNECTIONS | MEDIUM | MEMBER | MEMORY | MERGE | MICROSECOND
    | MIGRATE | MINUTE | MINVALUE | MIN_ROWS | MODE | MODIFY | MONITOR | MONTH | MULTILINESTRING
    | MULTIPOINT | MULTIPOLYGON | NAME | NAMES | NATIONAL | NCHAR | NESTED | NEVER | NEXT | NO | NOCACHE
    | NOCOPY | NOCYCLE | NODEGROUP | NOMAXVALUE | NOMINVALUE | NONE | NOWAIT | NVARCHAR | OFFSET | OLD
    | ONE | ONLINE | ONLY | OPEN | OPTIONAL | OPTIONS | ORDINALITY | OVERLAPS | OWNER | PACKAGE
    | PACK_KEYS | PAGE_CHECKSUM | PAGE_COMPRESSED | PAGE_COMPRESSION_LEVEL | PARSER | PARTIAL
    | PARTITIONING | PARTITIONS | PASSWORD | PASSWORD_LOCK_TIME | PATH | PERIOD | PERSIST | PERSISTENT
    | PERSIST_ONLY | PHASE | PLUGIN | POINT | POLYGON | PORT | POSITION | PRECEDES | PRECEDING | PREPARE
    | PRESERVE | PREV | PREVIOUS | PRIVILEGES | PROCESS | PROXY | QUARTER | QUERY | QUICK | RANDOM
    | REBUILD | RECOVER | REFERENCE | REF_SYSTEM_ID | RELAY | RELOAD | REMOVE | REORGANIZE | REPAIR
    | REPEATABLE | REPLICA | REPLICAS | REPLICATION | RESET | RESOURCE | RESTART | RESUME | RETAIN
    | RETURNING | RETURNS | REUSE | ROLE | ROLLBACK | ROLLUP | ROUTINE | ROW | ROW_FORMAT | RTREE
    | SAVEPOINT | SCHEDULE | SECOND | SECONDARY | SECONDARY_ENGINE | SECONDARY_ENGINE_ATTRIBUTE
    | SECURITY | SEQUENCE | SERIAL | SERIALIZABLE | SERVER | SESSION | SHARE | SHARED | SHUTDOWN
    | SIGNED | SIMPLE | SKIP_ | SLAVE | SLAVES | SLOW | SNAPSHOT | SOCKET | SOFT | SONAME | SOUNDS
    | SOURCE | SQL_BUFFER_RESULT | SQL_CACHE | SQL_NO_CACHE | SRID | STACKED | STAGE | START | STARTS
    | STATEMENT | STATS_AUTO_RECALC | STATS_PERSISTENT | STATS_SAMPLE_PAGES | STOP | STORAGE | STRING_KW
    | SUBJECT | SUBPARTITION | SUBPARTITIONS | SUBSTR | SUBSTRING | SUPER | SUSPEND | SYSTEM
    | SYSTEM_TIME | TABLES | TABLESPACE | TABLE_CHECKSUM | TEMPORARY | TEMPTABLE | TEXT | THAN | TIME
    | TIMESTAMP | TRANSACTION | TRANSACTIONAL | TRIM | TRUNCATE | TYPE | UNBOUNDED | UNCOMMITTED
    | UNDEFINED | UNICODE | UNINSTALL | UNKNOWN | UNTIL | UPGRADE | USER | USE_FRM | UUID | VALIDATION
    | VALUE | VECTOR | VERSIONING | VIA | VIEW | VIRTUAL | VISIBLE | WAIT | WEEK | WEIGHT_STRING
    | WITHOUT | WORK | WRAPPER | X509 | XA | XID | XML | YEAR | YES
    ;
