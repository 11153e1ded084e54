<#--
  tablesql's statements, added to Calcite's grammar (see config.fmpp). Each production builds a
  typed node of io.tablesql.parser; what a statement means is decided where it runs
  (io.tablesql.ddl.AzureDdlExecutor), so the grammar reads every form a user may write and the
  executor names what it refuses.
-->

boolean IfNotExistsOpt() :
{
}
{
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean IfExistsOpt() :
{
}
{
    <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** CASCADE, RESTRICT, or neither (the SQL standard's drop behavior). */
DropBehavior DropBehaviorOpt() :
{
}
{
    <CASCADE> { return DropBehavior.CASCADE; }
|
    <RESTRICT> { return DropBehavior.RESTRICT; }
|
    { return DropBehavior.UNSPECIFIED; }
}

/**
 * CREATE TABLE [IF NOT EXISTS] name [(elements)] [OVER azureTable [PARTITION KEY 'template']
 * [ROW KEY 'template'] [WHERE property = 'value']] [AS query].
 */
SqlCreate CreateTableNode(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final List<SqlNode> elements = new ArrayList<SqlNode>();
    TableMappingNode mapping = null;
    SqlNode query = null;
}
{
    <TABLE> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    [
        <LPAREN> TableElement(elements) ( <COMMA> TableElement(elements) )* <RPAREN>
    ]
    [ mapping = TableMapping() ]
    [ <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) ]
    {
        return new CreateTableNode(s.end(this), replace, ifNotExists, id,
            new SqlNodeList(elements, s.pos()), mapping, query);
    }
}

/** A column, or a table constraint: [CONSTRAINT name] PRIMARY KEY (...) | UNIQUE (...) | CHECK (...). */
void TableElement(List<SqlNode> elements) :
{
    final Span s = Span.of();
    SqlIdentifier name = null;
    final SqlNodeList columns;
    final SqlNode condition;
    final TableKeyNode key;
}
{
    ColumnDeclaration(elements)
|
    [ <CONSTRAINT> { s.add(this); } name = SimpleIdentifier() ]
    (
        key = PrimaryKey(s, name) { elements.add(key); }
    |
        <UNIQUE> { s.add(this); } columns = ParenthesizedSimpleIdentifierList() {
            elements.add(SqlDdlNodes.unique(s.end(columns), name, columns));
        }
    |
        <CHECK> { s.add(this); } <LPAREN> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) <RPAREN> {
            elements.add(SqlDdlNodes.check(s.end(this), name, condition));
        }
    )
}

/**
 * name type [NOT NULL | NULL] [DEFAULT expression] [PRIMARY KEY | UNIQUE] [REFERENCES BLOB], the
 * constraints in any order; a column's PRIMARY KEY, UNIQUE or REFERENCES BLOB is added after it as
 * the table element it stands for.
 */
void ColumnDeclaration(List<SqlNode> elements) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    boolean nullable = true;
    SqlNode defaultValue = null;
    final List<SqlNode> constraints = new ArrayList<SqlNode>();
    Span c;
    SqlIdentifier referenced;
}
{
    id = SimpleIdentifier() type = DataType()
    (
        <REFERENCES> { c = span(); } referenced = SimpleIdentifier() {
            constraints.add(new BlobReferenceNode(c.end(this), id, referenced));
        }
    |
        <NOT> <NULL> { nullable = false; }
    |
        <NULL> { nullable = true; }
    |
        <DEFAULT_> defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
    |
        <PRIMARY> { c = span(); } <KEY> {
            constraints.add(TableKeyNode.ofColumn(c.end(this), id));
        }
    |
        <UNIQUE> { c = span(); } {
            constraints.add(SqlDdlNodes.unique(c.end(this), null, new SqlNodeList(List.of(id), id.getParserPosition())));
        }
    )*
    {
        elements.add(SqlDdlNodes.column(id.getParserPosition().plus(getPos()), id, type.withNullable(nullable),
            defaultValue, defaultValue == null ? (nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE)
                : ColumnStrategy.DEFAULT));
        elements.addAll(constraints);
    }
}

/**
 * PRIMARY KEY ((p1, p2), r1 [ASC | DESC], ...): the columns in the inner parentheses make up
 * the PartitionKey, the rest the RowKey; without inner parentheses the first column is the
 * PartitionKey.
 */
TableKeyNode PrimaryKey(Span s, SqlIdentifier name) :
{
    final List<SqlIdentifier> columns = new ArrayList<SqlIdentifier>();
    final List<Boolean> descending = new ArrayList<Boolean>();
    int partitionColumns = -1;
    SqlIdentifier column;
}
{
    <PRIMARY> { s.add(this); } <KEY> <LPAREN>
    (
        <LPAREN>
        column = SimpleIdentifier() { columns.add(column); descending.add(false); }
        (
            <COMMA> column = SimpleIdentifier() { columns.add(column); descending.add(false); }
        )*
        <RPAREN> { partitionColumns = columns.size(); }
    |
        KeyColumn(columns, descending)
    )
    (
        <COMMA> KeyColumn(columns, descending)
    )*
    <RPAREN>
    {
        return new TableKeyNode(s.end(this), name, columns, descending,
            partitionColumns < 0 ? 1 : partitionColumns, partitionColumns >= 0);
    }
}

void KeyColumn(List<SqlIdentifier> columns, List<Boolean> descending) :
{
    final SqlIdentifier column;
    boolean desc = false;
}
{
    column = SimpleIdentifier() [ <ASC> | <DESC> { desc = true; } ]
    {
        columns.add(column);
        descending.add(desc);
    }
}

/**
 * OVER azureTable [PARTITION KEY 'template'] [ROW KEY 'template'] [KEY PROPERTIES (field, ...)]
 * [WHERE property = 'value'].
 */
TableMappingNode TableMapping() :
{
    final Span s;
    final SqlIdentifier table;
    SqlNode partitionKey = null;
    SqlNode rowKey = null;
    SqlNodeList keyProperties = SqlNodeList.EMPTY;
    SqlIdentifier property = null;
    SqlNode value = null;
}
{
    <OVER> { s = span(); } table = SimpleIdentifier()
    [ <PARTITION> <KEY> partitionKey = PlainString() ]
    [ <ROW> <KEY> rowKey = PlainString() ]
    [ <KEY> <PROPERTIES> keyProperties = ParenthesizedSimpleIdentifierList() ]
    [ <WHERE> property = SimpleIdentifier() <EQ> value = PlainString() ]
    {
        return new TableMappingNode(s.end(this), table, partitionKey, rowKey, keyProperties, property, value);
    }
}

/** A character string literal of one part, without a character set: a key template's or a property's text. */
SqlNode PlainString() :
{
}
{
    <QUOTED_STRING> {
        return SqlLiteral.createCharString(SqlParserUtil.parseString(token.image), getPos());
    }
}

/** CREATE VIEW name [(columns)] AS query. */
SqlCreate CreateViewNode(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    <VIEW> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new io.tablesql.parser.CreateViewNode(s.end(this), replace, ifNotExists, id, columns, query);
    }
}

/**
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC | DESC], ...) [INCLUDE (columns)]
 * [GLOBAL | LOCAL] [ROW KEY 'template'].
 */
SqlCreate CreateIndexNode(Span s, boolean replace) :
{
    boolean unique = false;
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
    final List<SqlIdentifier> columns = new ArrayList<SqlIdentifier>();
    final List<Boolean> descending = new ArrayList<Boolean>();
    SqlNodeList include = null;
    Boolean local = null;
    SqlNode rowKey = null;
}
{
    [ <UNIQUE> { unique = true; } ]
    <INDEX> ifNotExists = IfNotExistsOpt() name = SimpleIdentifier()
    <ON> table = CompoundIdentifier()
    <LPAREN> KeyColumn(columns, descending) ( <COMMA> KeyColumn(columns, descending) )* <RPAREN>
    [
        include = IncludeList() [ local = IndexScope() ]
    |
        local = IndexScope() [ include = IncludeList() ]
    ]
    [ <ROW> <KEY> rowKey = PlainString() ]
    {
        return new CreateIndexNode(s.end(this), replace, unique, ifNotExists, name, table, columns, descending,
            include, Boolean.TRUE.equals(local), rowKey);
    }
}

SqlNodeList IncludeList() :
{
    final SqlNodeList columns;
}
{
    <INCLUDE> columns = ParenthesizedSimpleIdentifierList() { return columns; }
}

/** GLOBAL (false) or LOCAL (true). */
Boolean IndexScope() :
{
}
{
    <GLOBAL> { return false; }
|
    <LOCAL> { return true; }
}

/** DROP TABLE [IF EXISTS] name [CASCADE | RESTRICT]. */
SqlDrop DropTableNode(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    final DropBehavior behavior;
}
{
    <TABLE> ifExists = IfExistsOpt() name = CompoundIdentifier() behavior = DropBehaviorOpt()
    {
        return new DropTableNode(s.end(this), ifExists, name, behavior);
    }
}

/** DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT]. */
SqlDrop DropViewNode(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    final DropBehavior behavior;
}
{
    <VIEW> ifExists = IfExistsOpt() name = CompoundIdentifier() behavior = DropBehaviorOpt()
    {
        return new DropViewNode(s.end(this), ifExists, name, behavior);
    }
}

/** DROP INDEX [IF EXISTS] name. */
SqlDrop DropIndexNode(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <INDEX> ifExists = IfExistsOpt() name = SimpleIdentifier()
    {
        return new DropIndexNode(s.end(this), ifExists, name);
    }
}

/** ALTER INDEX name VERIFY | REBUILD. */
SqlNode AlterIndexNode() :
{
    final Span s;
    final SqlIdentifier name;
    final boolean rebuild;
}
{
    <ALTER> { s = span(); } <INDEX> name = SimpleIdentifier()
    (
        <VERIFY> { rebuild = false; }
    |
        <REBUILD> { rebuild = true; }
    )
    {
        return new AlterIndexNode(s.end(this), name, rebuild);
    }
}

/**
 * CREATE MATERIALIZED VIEW [IF NOT EXISTS] name [PRIMARY KEY (...)] AS query: the view's key in
 * the table key syntax (a summary's is its GROUP BY columns when not written), its query over one table.
 */
SqlCreate CreateMaterializedViewNode(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    TableKeyNode key = null;
    final SqlNode query;
}
{
    <MATERIALIZED> <VIEW> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    [ key = PrimaryKey(Span.of(), null) ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return new CreateMaterializedViewNode(s.end(this), replace, ifNotExists, id, key, query);
    }
}

/** DROP MATERIALIZED VIEW [IF EXISTS] name. */
SqlDrop DropMaterializedViewNode(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <MATERIALIZED> <VIEW> ifExists = IfExistsOpt() name = CompoundIdentifier()
    {
        return new DropMaterializedViewNode(s.end(this), ifExists, name);
    }
}

/** ALTER MATERIALIZED VIEW name VERIFY | REBUILD. */
SqlNode AlterMaterializedViewNode() :
{
    final Span s;
    final SqlIdentifier name;
    final boolean rebuild;
}
{
    <ALTER> { s = span(); } <MATERIALIZED> <VIEW> name = CompoundIdentifier()
    (
        <VERIFY> { rebuild = false; }
    |
        <REBUILD> { rebuild = true; }
    )
    {
        return new AlterMaterializedViewNode(s.end(this), name, rebuild);
    }
}

/**
 * ALTER TABLE name ADD [COLUMN] column | DROP [COLUMN] name [CASCADE | RESTRICT]
 * | ALTER [COLUMN] name [SET DATA] TYPE type | VERIFY.
 */
SqlNode AlterTableNode() :
{
    final Span s;
    final SqlIdentifier table;
    final List<SqlNode> added = new ArrayList<SqlNode>();
    final SqlIdentifier dropped;
    final DropBehavior behavior;
    final SqlIdentifier altered;
    final SqlDataTypeSpec type;
}
{
    <ALTER> { s = span(); } <TABLE> table = CompoundIdentifier()
    (
        <ADD> [ <COLUMN> ] ColumnDeclaration(added)
        {
            return AlterTableNode.addColumn(s.end(this), table, added);
        }
    |
        <DROP> [ <COLUMN> ] dropped = SimpleIdentifier() behavior = DropBehaviorOpt()
        {
            return AlterTableNode.dropColumn(s.end(this), table, dropped, behavior);
        }
    |
        <VERIFY>
        {
            return AlterTableNode.verify(s.end(this), table);
        }
    |
        <ALTER> [ <COLUMN> ] altered = SimpleIdentifier() [ <SET> <DATA> ] <TYPE> type = DataType()
        {
            return AlterTableNode.alterColumnType(s.end(this), table, altered, type);
        }
    )
}

/**
 * PostgreSQL's cast operator: {@code value::type}, the same as {@code CAST(value AS type)}, as the
 * clients of the PostgreSQL-protocol server write it. A cast to {@code regclass} (a relation's
 * name to its OID, as catalog queries write {@code 'pg_class'::regclass}), {@code regtype} (a
 * type's OID to its name) or {@code regnamespace} (a schema's OID to its name) is a call of the catalog's function of that name on the value, which
 * binds as tightly as the cast.
 */
void InfixCast(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlDataTypeSpec type;
}
{
    <INFIX_CAST> {
        checkNonQueryExpression(exprContext);
    }
    type = DataType() {
        String typeName = type.getTypeName().names.get(type.getTypeName().names.size() - 1).toLowerCase(Locale.ROOT);
        if (typeName.equals("regclass") || typeName.equals("regtype") || typeName.equals("regnamespace")) {
            SqlNode value = (SqlNode) list.remove(list.size() - 1);
            list.add(createCall(new SqlIdentifier(java.util.Arrays.asList("pg_catalog", typeName), s.pos()),
                s.pos(), SqlFunctionCategory.USER_DEFINED_FUNCTION, null, new SqlNode[] {value}));
        } else {
            list.add(new SqlParserUtil.ToTreeListItem(SqlLibraryOperators.INFIX_CAST, s.pos()));
            list.add(type);
        }
    }
}

/**
 * PostgreSQL's {@code current_schema} and {@code current_catalog} (with or without parentheses),
 * which Calcite parses as context variables it cannot evaluate: calls of the catalog's functions.
 */
SqlNode PgSessionFunctionCall() :
{
    final String name;
    final Span s;
}
{
    (
        <CURRENT_SCHEMA> { name = "current_schema"; }
    |
        <CURRENT_CATALOG> { name = "current_database"; }
    )
    { s = span(); }
    [ LOOKAHEAD(2) <LPAREN> <RPAREN> ]
    {
        return createCall(new SqlIdentifier(java.util.Arrays.asList("pg_catalog", name), s.end(this)), s.end(this),
            SqlFunctionCategory.USER_DEFINED_FUNCTION, null, new SqlNode[0]);
    }
}

/**
 * PostgreSQL's {@code unnest(array)} in an expression, a set-returning function in a select list
 * as SQLAlchemy writes it ({@code SELECT unnest(ix.indkey) ...}; prepare.SelectListSetFunctions
 * expands it): Calcite's UNNEST is a FROM item only, and its name a reserved word.
 */
SqlNode PgUnnestCall() :
{
    final Span s;
    final SqlNode array;
}
{
    <UNNEST> { s = span(); } <LPAREN> array = Expression(ExprContext.ACCEPT_SUB_QUERY) <RPAREN>
    {
        return createCall(new SqlIdentifier("unnest", s.end(this)), s.end(this),
            SqlFunctionCategory.USER_DEFINED_FUNCTION, null, new SqlNode[] {array});
    }
}

/**
 * PostgreSQL's {@code OPERATOR(schema.op)} spelling of a binary operator, as psql writes its
 * patterns ({@code c.relname OPERATOR(pg_catalog.~) '^(orders)$'}): the operator itself.
 */
void PgOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    SqlOperator op;
}
{
    <OPERATOR> <LPAREN> [ LOOKAHEAD(2) SimpleIdentifier() <DOT> ]
    (
        <NEGATE> <TILDE> { op = SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_SENSITIVE; }
        [ <STAR> { op = SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_INSENSITIVE; } ]
    |
        <TILDE> { op = SqlStdOperatorTable.POSIX_REGEX_CASE_SENSITIVE; }
        [ <STAR> { op = SqlStdOperatorTable.POSIX_REGEX_CASE_INSENSITIVE; } ]
    |
        <EQ> { op = SqlStdOperatorTable.EQUALS; }
    |
        <NE> { op = SqlStdOperatorTable.NOT_EQUALS; }
    |
        <NE2> { op = SqlStdOperatorTable.NOT_EQUALS; }
    |
        <LT> { op = SqlStdOperatorTable.LESS_THAN; }
    |
        <GT> { op = SqlStdOperatorTable.GREATER_THAN; }
    |
        <LE> { op = SqlStdOperatorTable.LESS_THAN_OR_EQUAL; }
    |
        <GE> { op = SqlStdOperatorTable.GREATER_THAN_OR_EQUAL; }
    )
    <RPAREN> {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(op, s.pos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/**
 * A COLLATE clause after an expression, as psql writes {@code COLLATE pg_catalog.default}: the
 * collations that order and compare text by code point, as tablesql does (PostgreSQL's
 * {@code default} over a C locale, {@code "C"}, {@code "POSIX"}), change nothing; others are refused.
 */
void PgCollate(List<Object> list, ExprContext exprContext, Span s) :
{
    String name;
}
{
    <COLLATE> [ LOOKAHEAD(2) SimpleIdentifier() <DOT> ]
    (
        <DEFAULT_> { name = "default"; }
    |
        name = Identifier()
    )
    {
        if (!name.equals("default") && !name.equals("C") && !name.equals("POSIX")) {
            throw new ParseException("Collation " + name + " is not supported: tablesql compares and orders text "
                + "by code point, as the collations \"C\" and default do.");
        }
    }
}
