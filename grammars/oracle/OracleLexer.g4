// Oracle DDL lexer, written for mysqlddl from the Oracle Database SQL Language Reference (23ai;
// the 19c text is the same for everything used here). See README.md for the decisions.
//
// No predicates, no actions (shared/ANTLR-NOTES.md lessons 4 and 6). Keywords are
// case-insensitive (`caseInsensitive`). Only words the parser uses are keyword tokens; every
// other word is an ID (function names such as SYSDATE, type names such as CLOB or XMLTYPE).
lexer grammar OracleLexer;

options { caseInsensitive = true; }

// ---------------------------------------------------------------- keywords (alphabetical)
// SQL Ref. Appendix D "Oracle Database Reserved Words" marks the reserved ones; the parser's
// `nonReservedKeyword` rule lists every other token here.
ACCEPT: 'ACCEPT';
ADD: 'ADD';
ADMINISTER: 'ADMINISTER';
ALL: 'ALL';
ALTER: 'ALTER';
ALWAYS: 'ALWAYS';
ANALYZE: 'ANALYZE';
AND: 'AND';
ANNOTATIONS: 'ANNOTATIONS';
AS: 'AS';
ASSOCIATE: 'ASSOCIATE';
AUDIT: 'AUDIT';
BEGIN: 'BEGIN';
BLOCKCHAIN: 'BLOCKCHAIN';
BY: 'BY';
BYTE: 'BYTE';
CALL: 'CALL';
CASCADE: 'CASCADE';
CASE: 'CASE';
CHAR: 'CHAR';
CHARACTER: 'CHARACTER';
CHECK: 'CHECK';
CHECKPOINT: 'CHECKPOINT';
CLUSTER: 'CLUSTER';
CLUSTERING: 'CLUSTERING';
COLLATE: 'COLLATE';
COLUMN: 'COLUMN';
COLUMNS: 'COLUMNS';
COMMENT: 'COMMENT';
COMMIT: 'COMMIT';
CONSTRAINT: 'CONSTRAINT';
CONSTRAINTS: 'CONSTRAINTS';
CONTINUE: 'CONTINUE';
CREATE: 'CREATE';
DATE: 'DATE';
DAY: 'DAY';
DECIMAL: 'DECIMAL';
DECLARE: 'DECLARE';
DECRYPT: 'DECRYPT';
DEFAULT: 'DEFAULT';
DEFERRABLE: 'DEFERRABLE';
DEFERRED: 'DEFERRED';
DELETE: 'DELETE';
DISABLE: 'DISABLE';
DISASSOCIATE: 'DISASSOCIATE';
DOUBLE: 'DOUBLE';
DROP: 'DROP';
DUPLICATED: 'DUPLICATED';
ENABLE: 'ENABLE';
ENCRYPT: 'ENCRYPT';
END: 'END';
EXCEPTIONS: 'EXCEPTIONS';
EXEC: 'EXEC';
EXECUTE: 'EXECUTE';
EXISTS: 'EXISTS';
EXPLAIN: 'EXPLAIN';
FLASHBACK: 'FLASHBACK';
FLOAT: 'FLOAT';
FOR: 'FOR';
FOREIGN: 'FOREIGN';
GENERATED: 'GENERATED';
GLOBAL: 'GLOBAL';
GRANT: 'GRANT';
IDENTIFIED: 'IDENTIFIED';
IDENTITY: 'IDENTITY';
IF: 'IF';
IMMEDIATE: 'IMMEDIATE';
IMMUTABLE: 'IMMUTABLE';
INDEX: 'INDEX';
INITIALLY: 'INITIALLY';
INSERT: 'INSERT';
INTEGER: 'INTEGER';
INTERVAL: 'INTERVAL';
INTO: 'INTO';
INVALIDATE: 'INVALIDATE';
INVISIBLE: 'INVISIBLE';
IS: 'IS';
KEEP: 'KEEP';
KEY: 'KEY';
LOB: 'LOB';
LOCAL: 'LOCAL';
LOCK: 'LOCK';
LOG: 'LOG';
LOGICAL: 'LOGICAL';
LONG: 'LONG';
MATERIALIZED: 'MATERIALIZED';
MERGE: 'MERGE';
MODIFY: 'MODIFY';
MONTH: 'MONTH';
NATIONAL: 'NATIONAL';
NESTED: 'NESTED';
NO: 'NO';
NOAUDIT: 'NOAUDIT';
NORELY: 'NORELY';
NOT: 'NOT';
NOVALIDATE: 'NOVALIDATE';
NULL: 'NULL';
NUMBER: 'NUMBER';
OF: 'OF';
ON: 'ON';
ONLINE: 'ONLINE';
ONLY: 'ONLY';
OPAQUE: 'OPAQUE';
OR: 'OR';
OVERFLOW: 'OVERFLOW';
PARTITION: 'PARTITION';
PERIOD: 'PERIOD';
PRECISION: 'PRECISION';
PRESERVE: 'PRESERVE';
PRIMARY: 'PRIMARY';
PRIVATE: 'PRIVATE';
PURGE: 'PURGE';
RAW: 'RAW';
REFERENCES: 'REFERENCES';
RELY: 'RELY';
RENAME: 'RENAME';
REUSE: 'REUSE';
REVOKE: 'REVOKE';
ROLLBACK: 'ROLLBACK';
ROW: 'ROW';
ROWID: 'ROWID';
SALT: 'SALT';
SAVEPOINT: 'SAVEPOINT';
SECOND: 'SECOND';
SELECT: 'SELECT';
SET: 'SET';
SHARDED: 'SHARDED';
SHARING: 'SHARING';
SMALLINT: 'SMALLINT';
SORT: 'SORT';
STORAGE: 'STORAGE';
STORE: 'STORE';
SUBPARTITION: 'SUBPARTITION';
SUPPLEMENTAL: 'SUPPLEMENTAL';
TABLE: 'TABLE';
TEMPORARY: 'TEMPORARY';
TIME: 'TIME';
TIMESTAMP: 'TIMESTAMP';
TO: 'TO';
TRUNCATE: 'TRUNCATE';
UNIQUE: 'UNIQUE';
UNUSED: 'UNUSED';
UPDATE: 'UPDATE';
USING: 'USING';
VALIDATE: 'VALIDATE';
VARCHAR: 'VARCHAR';
VARCHAR2: 'VARCHAR2';
VARRAY: 'VARRAY';
VARYING: 'VARYING';
VIEW: 'VIEW';
VIRTUAL: 'VIRTUAL';
VISIBLE: 'VISIBLE';
WITH: 'WITH';
YEAR: 'YEAR';
ZONE: 'ZONE';

// ---------------------------------------------------------------- literals
// SQL Ref. 2.3.1 "Text Literals": '...' with '' for a quote, N'...' national, and the
// alternative quoting mechanism q'<delim>...<delim>' (the closing delimiter pairs with the
// opening one for [ { ( <, else repeats it). Only the usual delimiters are listed.
STRING: 'N'? '\'' ('\'\'' | ~'\'')* '\'';
Q_STRING
    : 'N'? 'Q\'' ( '[' .*? ']\'' | '{' .*? '}\'' | '(' .*? ')\'' | '<' .*? '>\''
                 | '!' .*? '!\'' | '#' .*? '#\'' | '|' .*? '|\'' | '~' .*? '~\''
                 | '^' .*? '^\'' | '/' .*? '/\'' | '+' .*? '+\'' | '*' .*? '*\''
                 | '%' .*? '%\'' | '@' .*? '@\'' | '"' .*? '"\'' | '=' .*? '=\'' )
    ;
// SQL Ref. 2.3.2 "Numeric Literals" (integer / number, with E exponent and f/d suffix).
INTEGER_LITERAL: [0-9]+;
NUMBER_LITERAL
    : ([0-9]+ '.' [0-9]* | '.' [0-9]+) ('E' [+-]? [0-9]+)? [FD]?
    | [0-9]+ 'E' [+-]? [0-9]+ [FD]?
    ;

// ---------------------------------------------------------------- identifiers
// SQL Ref. 2.8 "Database Object Names and Qualifiers": a quoted identifier is any characters
// but the double quote (spaces included) and keeps its case; a nonquoted one starts with a
// letter and holds letters, digits, _, $ and #.
QUOTED_ID: '"' ~'"'+ '"';
ID: [\p{L}_] [\p{L}\p{N}_$#]*;

// ---------------------------------------------------------------- operators and punctuation
LPAREN: '(';
RPAREN: ')';
COMMA: ',';
DOT2: '..';
DOT: '.';
SEMI: ';';
CONCAT: '||';
BAR: '|';
ASSIGN: ':=';
ARROW: '=>';
EQ: '=';
NE: '<>' | '!=' | '^=' | '~=';
LE: '<=';
GE: '>=';
LT: '<';
GT: '>';
PLUS: '+';
MINUS: '-';
POWER: '**';
STAR: '*';
SLASH: '/';
PERCENT: '%';
COLON: ':';
AT2: '@@';
AT: '@';
AMP: '&';
LBRACKET: '[';
RBRACKET: ']';
LBRACE: '{';
RBRACE: '}';
QUESTION: '?';

// ---------------------------------------------------------------- hidden
WS: [ \t\r\n\f\u00A0]+ -> channel(HIDDEN);
LINE_COMMENT: '--' ~[\r\n]* -> channel(HIDDEN);
BLOCK_COMMENT: '/*' .*? '*/' -> channel(HIDDEN);

// Every other character (an unterminated quote included) is a token of its own, so the lexer
// never prints an error and the parser reports the position.
ERROR_CHAR: .;
