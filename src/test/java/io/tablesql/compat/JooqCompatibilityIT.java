package io.tablesql.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * jOOQ's DSL (dialect DEFAULT) over the driver jar's DataSource in its own class loader: its
 * statements, with limits and offsets bound as parameters, are pushed down as they would be if
 * written by hand.
 */
class JooqCompatibilityIT {
  private static final Field<String> PARTITION_KEY = field(name("PartitionKey"), String.class);
  private static final Field<String> ROW_KEY = field(name("RowKey"), String.class);
  private static final Field<Integer> AGE = field(name("Age"), Integer.class);

  private static IsolatedDriverJar driverJar;
  private static Wire wire;
  private static Table<?> employees;
  private static String tableName;
  private static DSLContext dsl;

  @BeforeAll
  static void setUp() throws Exception {
    tableName = TestAccount.newTable("Jooq").getTableName();
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      entities.add(new TableEntity(i % 2 == 0 ? "even" : "odd", String.format("%03d", i)).addProperty("Age", i));
    }
    TestAccount.insert(TestAccount.service().getTableClient(tableName), entities);
    employees = table(name(tableName));
    driverJar = IsolatedDriverJar.load();
    wire = Wire.open();
    dsl = DSL.using(driverJar.dataSource(wire.url()), SQLDialect.DEFAULT);
    assertThat(dsl.fetchCount(employees)).isEqualTo(50); // the schema is inferred before requests are counted
  }

  @AfterAll
  static void tearDown() throws Exception {
    wire.close();
    driverJar.close();
  }

  @Test
  void boundLimitIsSentAsThePageSizeAndStopsThePaging() {
    var query = dsl.select(ROW_KEY).from(employees).where(PARTITION_KEY.eq("even")).limit(3);
    assertThat(query.getSQL(ParamType.INDEXED)).contains("?");
    Wire.Window window = wire.watch();
    List<String> rowKeys = query.fetch(ROW_KEY);
    assertThat(rowKeys).containsExactly("000", "002", "004");
    assertThat(window.requestsTo(tableName)).singleElement().asString()
        .contains("$top=3").contains("PartitionKey eq 'even'");
    assertThat(window.entities()).isEqualTo(3);
  }

  @Test
  void boundLimitAndOffsetAnswerLikeTheSameQueryWithoutPushdown() {
    var query = dsl.select(ROW_KEY, AGE).from(employees).where(AGE.gt(10)).orderBy(ROW_KEY).limit(4).offset(2);
    List<String> pushed = query.fetch(row -> row.value1() + ":" + row.value2());
    DSLContext oracle = DSL.using(driverJar.dataSource(wire.url("pushdown=false")), SQLDialect.DEFAULT);
    assertThat(pushed).containsExactly("013:13", "014:14", "015:15", "016:16")
        .isEqualTo(oracle.fetch(query).map(row -> row.get(ROW_KEY) + ":" + row.get(AGE)));
  }

  @Test
  void orderByRowKeyWithBoundLimitInAPartitionReadsOnlyTheRowsReturned() {
    Wire.Window window = wire.watch();
    List<String> rowKeys = dsl.select(ROW_KEY).from(employees).where(PARTITION_KEY.eq("odd")).orderBy(ROW_KEY)
        .limit(2).fetch(ROW_KEY);
    assertThat(rowKeys).containsExactly("001", "003");
    assertThat(window.requestsTo(tableName)).singleElement().asString().contains("$top=2");
    assertThat(window.entities()).isEqualTo(2);
  }

  @Test
  void insertUpdateDeleteThroughTheDsl() {
    Table<?> written = table(name("JooqWrite"));
    dsl.createTable(written).column(PARTITION_KEY).column(ROW_KEY).column(AGE).execute(); // AGE stored as Int32
    assertThat(dsl.insertInto(written, PARTITION_KEY, ROW_KEY, AGE).values("p", "1", 30).values("p", "2", 40)
        .execute()).isEqualTo(2);
    assertThat(dsl.update(written).set(AGE, AGE.plus(1)).where(PARTITION_KEY.eq("p")).and(ROW_KEY.eq("1"))
        .execute()).isEqualTo(1);
    assertThat(dsl.deleteFrom(written).where(PARTITION_KEY.eq("p")).and(ROW_KEY.eq("2")).execute()).isEqualTo(1);
    assertThat(dsl.select(ROW_KEY, AGE).from(written).fetch(row -> row.value1() + ":" + row.value2()))
        .containsExactly("1:31");
  }
}
