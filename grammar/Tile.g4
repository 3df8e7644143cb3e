// The .tile kernel language. docs/language.md describes the syntax and semantics;
// this grammar only fixes the shape of programs. Names of built-ins, memory spaces
// and rounding modes are ordinary identifiers resolved by the frontend, so adding
// one never changes the grammar; `where` is the one built-in that is also a keyword
// (of the kernel header), which a call names too.
grammar Tile;

// ============================== parser ==============================

module : topDecl* EOF ;

topDecl
  : constDecl
  | kernelDecl
  | importDecl
  | reservedStmt
  ;

constDecl : CONST ID ASSIGN expr SEMI ;

// Each construct with a block body has a head rule, so the frontend can parse a long
// body statement by statement (see ChunkedParse.cpp).
kernelDecl : kernelHead block ;
kernelHead : kernelKind? KERNEL ID LPAREN paramList? RPAREN whereClause? ;
kernelKind : INCORE | AIC | AIV | MIX | SEQUENCE ;  // the target says which of these it has
paramList  : param (COMMA param)* COMMA? ;
// Tensor parameters carry a direction and dims; the frontend checks that both or
// neither are present, which gives better messages than a grammar split.
param      : ID COLON direction? DTYPE (LBRACK exprList? RBRACK)? ;
direction  : IN | OUT | INOUT ;
whereClause : WHERE symbolDecl (COMMA symbolDecl)* ;
symbolDecl : ID COLON DYN ;

block : LBRACE stmt* RBRACE ;

stmt
  : bindStmt
  | assignStmt
  | forStmt
  | ifStmt
  | constDecl
  | exprStmt
  | block
  | reservedStmt
  ;

bindStmt   : kw=(LET | VAR) ID (COLON typeAnn)? ASSIGN expr SEMI ;
// `arr[i, j] = e;` writes one slot of a tile array.
assignStmt : ID (LBRACK exprList RBRACK)? op=(ASSIGN | PLUS_ASSIGN | MINUS_ASSIGN | STAR_ASSIGN | SLASH_ASSIGN) expr SEMI ;
forStmt    : forHead block ;
// `parallel(cyclic) for`: how a parallel loop's iterations go to the blocks (blocked by default).
// `for ... buffers(2)`: a clause after the bounds (only `buffers` today: how many iterations
// run at once, each with buffers of its own).
forHead    : (UNROLL | PARALLEL (LPAREN schedule=ID RPAREN)?)? FOR var=ID IN expr DOTDOT expr (STEP expr)?
             (clause=ID LPAREN clauseValue=expr RPAREN)? ;
ifStmt     : ifHead block (ELSE (ifStmt | block))? ;
ifHead     : IF expr ;
exprStmt   : expr SEMI ;

// `f32`, `index`, or `tile<f32, [16, 16], vec, valid = [r, 16]>`.
typeAnn
  : DTYPE                                                        # scalarTypeAnn
  | ID                                                           # namedTypeAnn
  | ID LT DTYPE COMMA LBRACK exprList RBRACK (COMMA tileTypeOpt)* GT  # tileTypeAnn
  ;
tileTypeOpt : ID (ASSIGN LBRACK exprList RBRACK)? ;

// Earlier alternatives bind tighter. The bitwise operators bind as in Python (and
// Triton): tighter than comparisons, so `x & 1 == 0` is `(x & 1) == 0`.
expr
  : primary                                        # primaryExpr
  | op=(MINUS | NOT | TILDE) expr                  # unaryExpr
  | expr op=(STAR | SLASH | PERCENT) expr          # binaryExpr
  | expr op=(PLUS | MINUS) expr                    # binaryExpr
  | expr op=(SHL | SHR) expr                       # binaryExpr
  | expr op=AMP expr                               # binaryExpr
  | expr op=CARET expr                             # binaryExpr
  | expr op=PIPE expr                              # binaryExpr
  | expr op=(EQ | NE | LT | LE | GT | GE) expr     # binaryExpr
  | expr op=AND expr                               # binaryExpr
  | expr op=OR expr                                # binaryExpr
  ;

primary
  : INT                                            # intLit
  | FLOAT                                          # floatLit
  | (TRUE | FALSE)                                 # boolLit
  | callee=(ID | WHERE) (LT DTYPE GT)? LPAREN argList? RPAREN  # call
  | ID LBRACK exprList RBRACK                      # indexExpr
  | ID                                             # nameRef
  | LPAREN expr RPAREN                             # parenExpr
  | LBRACK exprList? RBRACK                        # listExpr
  ;

argList  : arg (COMMA arg)* ;
arg      : (ID ASSIGN)? expr ;
exprList : expr (COMMA expr)* ;

// ---- syntax reserved for later versions (parsed, then rejected with E0103) ----
importDecl   : IMPORT STRING SEMI ;
reservedStmt
  : kw=PATTERN ID (COLON typeAnn)? (ASSIGN expr)? SEMI
  | kw=REGION ID? (LPAREN argList? RPAREN)? block
  ;

// ============================== lexer ==============================

CONST    : 'const' ;
KERNEL   : 'kernel' ;
INCORE   : 'incore' ;
AIC      : 'aic' ;
AIV      : 'aiv' ;
MIX      : 'mix' ;
IN       : 'in' ;
OUT      : 'out' ;
INOUT    : 'inout' ;
WHERE    : 'where' ;
DYN      : 'dyn' ;
LET      : 'let' ;
VAR      : 'var' ;
FOR      : 'for' ;
UNROLL   : 'unroll' ;
PARALLEL : 'parallel' ;
STEP     : 'step' ;
IF       : 'if' ;
ELSE     : 'else' ;
TRUE     : 'true' ;
FALSE    : 'false' ;

IMPORT     : 'import' ;
SEQUENCE   : 'sequence' ;
PATTERN    : 'pattern' ;
REGION     : 'region' ;

DTYPE : 'bool' | 'i8' | 'i16' | 'i32' | 'i64' | 'u8' | 'u16' | 'u32' | 'f16' | 'bf16' | 'f32' ;

DOTDOT       : '..' ;
PLUS_ASSIGN  : '+=' ;
MINUS_ASSIGN : '-=' ;
STAR_ASSIGN  : '*=' ;
SLASH_ASSIGN : '/=' ;
EQ     : '==' ;
NE     : '!=' ;
LE     : '<=' ;
GE     : '>=' ;
AND    : '&&' ;
OR     : '||' ;
SHL    : '<<' ;
SHR    : '>>' ;
LT     : '<' ;
GT     : '>' ;
ASSIGN : '=' ;
PLUS   : '+' ;
MINUS  : '-' ;
STAR   : '*' ;
SLASH  : '/' ;
PERCENT: '%' ;
NOT    : '!' ;
TILDE  : '~' ;
AMP    : '&' ;
PIPE   : '|' ;
CARET  : '^' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACK : '[' ;
RBRACK : ']' ;
LBRACE : '{' ;
RBRACE : '}' ;
COMMA  : ',' ;
COLON  : ':' ;
SEMI   : ';' ;

FLOAT : DIGITS '.' DIGITS EXPONENT? | DIGITS EXPONENT ;
INT   : DIGITS | '0' [xX] [0-9a-fA-F]+ ;
ID    : [a-zA-Z_] [a-zA-Z_0-9]* ;
STRING : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"' ;

fragment DIGITS   : [0-9]+ ;
fragment EXPONENT : [eE] [+-]? DIGITS ;

WS            : [ \t\r\n]+ -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;

// Lexical errors become tokens on the hidden channel: the parser never sees them,
// the frontend reports each one, and --emit=tokens shows them.
UNTERMINATED_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* EOF -> channel(HIDDEN) ;
UNTERMINATED_STRING  : '"' (~["\\\r\n] | '\\' ~[\r\n])* -> channel(HIDDEN) ;
BAD_CHAR             : . -> channel(HIDDEN) ;
