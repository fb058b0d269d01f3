// Oracle DDL lexer (minimal; the full grammar is written in its own issue from the Oracle SQL
// Language Reference). Keywords are case-insensitive via fragment letters.
lexer grammar OracleLexer;

options { caseInsensitive = true; }

CREATE: 'CREATE';
TABLE: 'TABLE';
NUMBER: 'NUMBER';
VARCHAR2: 'VARCHAR2';
DATE: 'DATE';

LPAREN: '(';
RPAREN: ')';
COMMA: ',';
DOT: '.';
SEMI: ';';

INTEGER_LITERAL: [0-9]+;
// Oracle quoted identifiers: any character but a double quote, spaces included (SQL Ref. 2.8).
QUOTED_ID: '"' ~'"'+ '"';
ID: [A-Z_] [A-Z_0-9$#]*;

WS: [ \t\r\n]+ -> channel(HIDDEN);
LINE_COMMENT: '--' ~[\r\n]* -> channel(HIDDEN);
BLOCK_COMMENT: '/*' .*? '*/' -> channel(HIDDEN);
