// MySQL parser: placeholder proving the build pipeline; replaced by the full grammar (issue 3).
parser grammar MySqlParser;

options { tokenVocab = MySqlLexer; }

singleStatement: createTable SEMI? EOF;

createTable: CREATE TABLE tableName LPAREN columnDefinition (COMMA columnDefinition)* RPAREN;

tableName: uid (DOT uid)?;

columnDefinition: uid dataType (NOT? NULL_)?;

dataType: INT | VARCHAR LPAREN DECIMAL_LITERAL RPAREN;

uid: ID | BACKTICK_ID;
