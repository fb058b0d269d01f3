// MySQL lexer: placeholder proving the build pipeline; replaced by the full grammar (issue 3).
lexer grammar MySqlLexer;

options { caseInsensitive = true; }

CREATE: 'CREATE';
TABLE: 'TABLE';
NOT: 'NOT';
NULL_: 'NULL';
INT: 'INT';
VARCHAR: 'VARCHAR';

LPAREN: '(';
RPAREN: ')';
COMMA: ',';
DOT: '.';
SEMI: ';';

DECIMAL_LITERAL: [0-9]+;
BACKTICK_ID: '`' (~'`' | '``')+ '`';
ID: [A-Z_$0-9\u0080-\uFFFF]* [A-Z_$\u0080-\uFFFF] [A-Z_$0-9\u0080-\uFFFF]*;

WS: [ \t\r\n]+ -> channel(HIDDEN);
