package io.tablesql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.Test;

/**
 * tablesql's grammar, without a backend: every statement it adds to Calcite's parses into its
 * typed node, and a mistake inside one is reported at its line and column in the text as written.
 */
class GrammarUnitTest {
  private static final SqlParser.Config CONFIG = SqlParser.config()
      .withQuoting(Quoting.DOUBLE_QUOTE)
      .withUnquotedCasing(Casing.UNCHANGED)
      .withQuotedCasing(Casing.UNCHANGED)
      .withParserFactory(TableSqlParser.FACTORY);

  private static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, CONFIG).parseStmt();
  }

  /** The position of the syntax error {@code sql} has. */
  private static SqlParserPos errorAt(String sql) {
    try {
      parse(sql);
    } catch (SqlParseException e) {
      return e.getPos();
    }
    throw new AssertionError("parsed: " + sql);
  }

  @Test
  void keyClauseForms() throws SqlParseException {
    CreateTableNode compound = (CreateTableNode) parse(
        "CREATE TABLE t (a INT, b VARCHAR(10), c DATE, d BIGINT, PRIMARY KEY ((a, b), c, d DESC))");
    TableKeyNode key = compound.primaryKeys().get(0);
    assertThat(key.columnNames()).containsExactly("a", "b", "c", "d");
    assertThat(key.partitionColumns).isEqualTo(2);
    assertThat(key.descending).containsExactly(false, false, false, true);
    assertThat(compound.columns()).extracting(column -> column.name.getSimple()).containsExactly("a", "b", "c", "d");

    TableKeyNode plain = ((CreateTableNode) parse("CREATE TABLE t (a INT, b INT, CONSTRAINT pk PRIMARY KEY (a, b ASC))"))
        .primaryKeys().get(0);
    assertThat(plain.partitionColumns).isEqualTo(1);
    assertThat(plain.constraintName.getSimple()).isEqualTo("pk");

    CreateTableNode column = (CreateTableNode) parse("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(30))");
    assertThat(column.primaryKeys().get(0).columnNames()).containsExactly("id");
    assertThat(column.columns().get(0).dataType.getNullable()).isFalse();

    CreateTableNode raw = (CreateTableNode) parse("CREATE TABLE Orders (PartitionKey VARCHAR NOT NULL, RowKey VARCHAR "
        + "NOT NULL, Total DOUBLE, PRIMARY KEY (PartitionKey, RowKey))");
    assertThat(raw.primaryKeys().get(0).columnNames()).containsExactly("PartitionKey", "RowKey");
  }

  @Test
  void uniqueCheckDefaultAndTheMappingClause() throws SqlParseException {
    CreateTableNode unique = (CreateTableNode) parse("CREATE TABLE t3 (z INTEGER UNIQUE, a INT, b INT, UNIQUE (a, b))");
    assertThat(unique.uniqueConstraints()).hasSize(2);
    assertThat(unique.primaryKeys()).isEmpty();

    CreateTableNode others = (CreateTableNode) parse(
        "CREATE TABLE t (a INT DEFAULT 1, CONSTRAINT positive CHECK (a > 0))");
    assertThat(others.checkConstraints()).hasSize(1);
    assertThat(others.columns().get(0).expression).isNotNull();

    CreateTableNode mapped = (CreateTableNode) parse("CREATE TABLE IF NOT EXISTS Employee (Department VARCHAR, "
        + "EmployeeId INT, Name VARCHAR) OVER Employees PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}' "
        + "WHERE EntityType = 'Employee'");
    assertThat(mapped.ifNotExists).isTrue();
    assertThat(mapped.mapping.tableName()).isEqualTo("Employees");
    assertThat(mapped.mapping.partitionKeyTemplate()).isEqualTo("{Department}");
    assertThat(mapped.mapping.rowKeyTemplate()).isEqualTo("empid_{EmployeeId:6}");
    assertThat(mapped.mapping.property()).isEqualTo("EntityType");
    assertThat(mapped.mapping.value()).isEqualTo("Employee");
    assertThat(mapped.mapping.keyProperties()).isEmpty();

    CreateTableNode keyProperties = (CreateTableNode) parse("CREATE TABLE Employee (Department VARCHAR, "
        + "EmployeeId INT) OVER Employees PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}' "
        + "KEY PROPERTIES (EmployeeId, \"Department\") WHERE EntityType = 'Employee'");
    assertThat(keyProperties.mapping.keyProperties()).containsExactly("EmployeeId", "Department");
    assertThat(keyProperties.mapping.toString()).contains("KEY PROPERTIES (`EmployeeId`, `Department`)");

    CreateTableNode quotes = (CreateTableNode) parse("CREATE TABLE t (a INT) OVER \"Raw\" ROW KEY 'it''s_{a}'");
    assertThat(quotes.mapping.tableName()).isEqualTo("Raw");
    assertThat(quotes.mapping.partitionKeyTemplate()).isNull();
    assertThat(quotes.mapping.rowKeyTemplate()).isEqualTo("it's_{a}");
  }

  @Test
  void indexStatements() throws SqlParseException {
    CreateIndexNode create = (CreateIndexNode) parse(
        "CREATE UNIQUE INDEX IF NOT EXISTS byEmail ON People (Email DESC, Name) INCLUDE (Phone, Age) LOCAL");
    assertThat(create.unique).isTrue();
    assertThat(create.ifNotExists).isTrue();
    assertThat(create.name.getSimple()).isEqualTo("byEmail");
    assertThat(create.table.getSimple()).isEqualTo("People");
    assertThat(create.columns).extracting(c -> c.getSimple()).containsExactly("Email", "Name");
    assertThat(create.descending).containsExactly(true, false);
    assertThat(create.include).hasSize(2);
    assertThat(create.local).isTrue();
    CreateIndexNode scopeFirst = (CreateIndexNode) parse("CREATE INDEX i ON t (a) GLOBAL");
    assertThat(scopeFirst.local).isFalse();
    assertThat(((CreateIndexNode) parse("CREATE INDEX i ON t (a) LOCAL INCLUDE (b)")).local).isTrue();

    DropIndexNode drop = (DropIndexNode) parse("DROP INDEX IF EXISTS byEmail");
    assertThat(drop.ifExists).isTrue();
    assertThat(((AlterIndexNode) parse("ALTER INDEX byEmail REBUILD")).rebuild).isTrue();
    assertThat(((AlterIndexNode) parse("ALTER INDEX byEmail VERIFY")).rebuild).isFalse();
    assertThat(parse("ALTER INDEX i VERIFY").getKind()).isEqualTo(SqlKind.ALTER_INDEX);
  }

  @Test
  void materializedViewStatements() throws SqlParseException {
    CreateMaterializedViewNode copy = (CreateMaterializedViewNode) parse("CREATE MATERIALIZED VIEW IF NOT EXISTS "
        + "ByEmail PRIMARY KEY ((Email), Id) AS SELECT Email, Id, Name FROM People WHERE Email IS NOT NULL");
    assertThat(copy.name.getSimple()).isEqualTo("ByEmail");
    assertThat(copy.key).isNotNull();
    assertThat(copy.query.getKind()).isEqualTo(SqlKind.SELECT);
    assertThat(copy.ifNotExists).isTrue();
    CreateMaterializedViewNode summary = (CreateMaterializedViewNode) parse("CREATE MATERIALIZED VIEW Totals AS "
        + "SELECT Dept, COUNT(*) AS n, SUM(Salary) AS total, AVG(Salary) AS mean FROM People GROUP BY Dept");
    assertThat(summary.key).as("no key clause: the GROUP BY columns are the key").hasToString("PRIMARY KEY ((`Dept`))");
    assertThat(((DropMaterializedViewNode) parse("DROP MATERIALIZED VIEW IF EXISTS Totals")).ifExists).isTrue();
    assertThat(((AlterMaterializedViewNode) parse("ALTER MATERIALIZED VIEW Totals REBUILD")).rebuild).isTrue();
    assertThat(((AlterMaterializedViewNode) parse("ALTER MATERIALIZED VIEW Totals VERIFY")).rebuild).isFalse();
    SqlParserPos missing = errorAt("CREATE MATERIALIZED VIEW v PRIMARY KEY ((a)) SELECT a FROM t");
    assertThat(List.of(missing.getLineNum(), missing.getColumnNum())).containsExactly(1, 46);
  }

  @Test
  void dropBehaviorsAndAlterTable() throws SqlParseException {
    DropTableNode cascade = (DropTableNode) parse("DROP TABLE tab3 CASCADE");
    assertThat(cascade.behavior).isEqualTo(DropBehavior.CASCADE);
    assertThat(cascade.ifExists).isFalse();
    DropTableNode restrict = (DropTableNode) parse("DROP TABLE IF EXISTS t RESTRICT");
    assertThat(restrict.behavior).isEqualTo(DropBehavior.RESTRICT);
    assertThat(restrict.ifExists).isTrue();
    assertThat(((DropTableNode) parse("DROP TABLE t")).behavior).isEqualTo(DropBehavior.UNSPECIFIED);
    assertThat(((DropViewNode) parse("DROP VIEW IF EXISTS v CASCADE")).behavior).isEqualTo(DropBehavior.CASCADE);
    assertThat(parse("CREATE OR REPLACE VIEW v (x) AS SELECT 1 FROM t")).isInstanceOf(CreateViewNode.class);
    CreateViewNode ifNotExists = (CreateViewNode) parse("CREATE VIEW IF NOT EXISTS v AS SELECT 1 FROM t");
    assertThat(ifNotExists.ifNotExists).isTrue();
    assertThat(ifNotExists.columnList).isNull();
    assertThat(((SqlCreate) parse("CREATE OR REPLACE VIEW v AS SELECT 1 FROM t")).getReplace()).isTrue();

    AlterTableNode add = (AlterTableNode) parse("ALTER TABLE t ADD COLUMN note VARCHAR(100)");
    SqlColumnDeclaration added = add.addedColumn();
    assertThat(added.name.getSimple()).isEqualTo("note");
    assertThat(((AlterTableNode) parse("ALTER TABLE t ADD score INT UNIQUE")).added).hasSize(2);
    AlterTableNode drop = (AlterTableNode) parse("ALTER TABLE t DROP COLUMN note CASCADE");
    assertThat(drop.dropped.getSimple()).isEqualTo("note");
    assertThat(drop.behavior).isEqualTo(DropBehavior.CASCADE);
    assertThat(((AlterTableNode) parse("ALTER TABLE t DROP note")).behavior).isEqualTo(DropBehavior.UNSPECIFIED);
    // Calcite's own ALTER is still there
    assertThat(parse("ALTER SESSION SET x = 1").getKind()).isEqualTo(SqlKind.SET_OPTION);
  }

  @Test
  void wordsUsersWriteAsNamesAreNotReserved() throws SqlParseException {
    for (String sql : List.of(
        "CREATE TABLE Visits (site VARCHAR(20), at TIMESTAMP, value DOUBLE, count INT, year INT, position INT)",
        "SELECT COUNT(*) AS COUNT, MAX(n) AS max, MIN(n) AS MIN FROM t",
        "SELECT n AS RANK, n AS One, at, value, year FROM t WHERE value > 1 GROUP BY at, value, year",
        "SELECT EXTRACT(YEAR FROM d), YEAR(d), INTERVAL '1' DAY, CAST(v AS DATE), DATE '2024-01-01' FROM t",
        "SELECT * FROM (VALUES (1, 2)) AS v (a, b)")) {
      assertThat(parse(sql)).as(sql).isNotNull();
    }
    // the words SQL cannot do without stay reserved, but label a column after AS, as in PostgreSQL
    assertThat(errorAt("SELECT n AS FROM t").getColumnNum()).isEqualTo(13);
    assertThat(errorAt("SELECT n FROM FROM t").getColumnNum()).isEqualTo(15);
    assertThat(parse("SELECT n AS select, m AS \"table\", o AS default FROM t").toString())
        .isEqualTo("SELECT `n` AS `select`, `m` AS `table`, `o` AS `default`\nFROM `t`");
    // pg_catalog.unnest is unnest, in FROM (Calcite's) and in an expression (PostgreSQL's, expanded later)
    assertThat(parse("SELECT x FROM pg_catalog.unnest(a) x").toString()).isEqualTo("SELECT `x`\nFROM UNNEST(`a`) AS `x`");
    assertThat(parse("SELECT pg_catalog.unnest(a) FROM t").toString()).isEqualTo("SELECT `unnest`(`a`)\nFROM `t`");
    assertThat(parse("SELECT pg_catalog.x FROM pg_catalog.t").toString()).isEqualTo("SELECT `pg_catalog`.`x`\nFROM `pg_catalog`.`t`");
    // a function's first argument that is a call: in FROM, Calcite's extended-column syntax would take it
    assertThat(parse("SELECT i FROM generate_series(array_lower(a, 1), f(2)) AS i").toString())
        .isEqualTo("SELECT `i`\nFROM TABLE(`generate_series`(`array_lower`(`a`, 1), `f`(2))) AS `i`");
    // a call that more follows (a window, a filter) is left as written: OVER must follow its call
    assertThat(parse("SELECT round(stddev(v) OVER (PARTITION BY k), 2), f(g(x) + 1), f(mode() WITHIN GROUP "
        + "(ORDER BY x)) FROM t")).isNotNull();
    assertThat(parse("SELECT f(g(h(x)), 1) FROM t(c INTEGER)").toString())
        .isEqualTo("SELECT `f`(`g`(`h`(`x`)), 1)\nFROM `t` EXTEND (`c` INTEGER)");
  }

  @Test
  void errorsPointIntoTheTextAsWritten() {
    // in a key clause: DESC inside the partition's parentheses
    SqlParserPos key = errorAt("CREATE TABLE t (a INT, b INT,\n  PRIMARY KEY ((a DESC), b))");
    assertThat(List.of(key.getLineNum(), key.getColumnNum())).containsExactly(2, 19);
    // in a mapping clause: a template that is not a string
    SqlParserPos mapping = errorAt("CREATE TABLE t (a INT) OVER Raw PARTITION KEY {a}");
    assertThat(List.of(mapping.getLineNum(), mapping.getColumnNum())).containsExactly(1, 47);
    // a template must be plain text, not a binary string or one with a character set
    SqlParserPos binary = errorAt("CREATE TABLE t (a INT) OVER Raw PARTITION KEY X'0A'");
    assertThat(List.of(binary.getLineNum(), binary.getColumnNum())).containsExactly(1, 47);
    // in an index statement: neither VERIFY nor REBUILD
    SqlParserPos alter = errorAt("ALTER INDEX i REPAIR");
    assertThat(List.of(alter.getLineNum(), alter.getColumnNum())).containsExactly(1, 15);
    SqlParserPos index = errorAt("CREATE INDEX i ON t (a) INCLUDE (b) INCLUDE (c)");
    assertThat(List.of(index.getLineNum(), index.getColumnNum())).containsExactly(1, 37);
    SqlParserPos drop = errorAt("DROP TABLE t CASCADE RESTRICT");
    assertThat(List.of(drop.getLineNum(), drop.getColumnNum())).containsExactly(1, 22);
    SqlParserPos scope = errorAt("CREATE INDEX i ON t (a) LOCAL GLOBAL");
    assertThat(List.of(scope.getLineNum(), scope.getColumnNum())).containsExactly(1, 31);
  }

  @Test
  void nodesUnparseToWhatTheyParseFrom() throws SqlParseException {
    for (String sql : List.of(
        "CREATE TABLE t (a INT, b INT, PRIMARY KEY ((a), b DESC))",
        "CREATE UNIQUE INDEX i ON t (a DESC) INCLUDE (b) LOCAL",
        "DROP TABLE IF EXISTS t CASCADE",
        "ALTER TABLE t DROP COLUMN c RESTRICT",
        "CREATE OR REPLACE VIEW IF NOT EXISTS v (x) AS SELECT a FROM t",
        "CREATE MATERIALIZED VIEW m PRIMARY KEY ((a), b) AS SELECT a, b FROM t",
        "DROP MATERIALIZED VIEW IF EXISTS m",
        "ALTER MATERIALIZED VIEW m VERIFY")) {
      String once = parse(sql).toSqlString(CalciteSqlDialect.DEFAULT).getSql();
      assertThat(parse(once).toSqlString(CalciteSqlDialect.DEFAULT).getSql()).as(sql).isEqualTo(once);
    }
  }
}
