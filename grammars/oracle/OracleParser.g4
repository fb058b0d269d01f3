// Oracle DDL parser (minimal; see OracleLexer.g4).
parser grammar OracleParser;

options { tokenVocab = OracleLexer; }

singleStatement: createTable SEMI? EOF;

createTable: CREATE TABLE tableName LPAREN columnDefinition (COMMA columnDefinition)* RPAREN;

tableName: identifier (DOT identifier)?;

columnDefinition: identifier dataType;

dataType
    : NUMBER (LPAREN INTEGER_LITERAL (COMMA INTEGER_LITERAL)? RPAREN)?
    | VARCHAR2 LPAREN INTEGER_LITERAL RPAREN
    | DATE
    ;

identifier: ID | QUOTED_ID;
