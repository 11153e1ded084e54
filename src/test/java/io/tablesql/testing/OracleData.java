package io.tablesql.testing;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * A table built to catch pushdown mistakes: mixed types in one property, missing properties,
 * quotes and non-ASCII text in keys and values, DateTimes finer than a millisecond.
 */
public final class OracleData {
  public static final String[] NAMES = {"Ann", "bob", "Zoë", "O'Brien", "日本", "", "a'b''c", "Ann ", "ann", "Émile"};
  public static final String[] PARTITIONS = {"p0", "p1", "p2", "p3", "Q'x", "ü-part", "日本", "p 7"};

  private OracleData() {
  }

  public static TableClient create() {
    TableClient table = TestAccount.newTable("Oracle");
    Random random = new Random(42);
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 320; i++) {
      String partition = PARTITIONS[i % PARTITIONS.length];
      String row = (i % 5 == 0 ? "k'" : i % 7 == 0 ? "é" : "r") + String.format("%03d", i);
      TableEntity entity = new TableEntity(partition, row);
      if (random.nextInt(6) != 0) {
        entity.addProperty("Name", NAMES[random.nextInt(NAMES.length)]);
      }
      if (random.nextInt(5) != 0) {
        entity.addProperty("Age", random.nextInt(80) - 5);
      }
      if (random.nextInt(4) != 0) {
        entity.addProperty("Big", (random.nextBoolean() ? 1L : -1L) * (long) (random.nextDouble() * 9e15));
      }
      if (random.nextInt(4) != 0) {
        entity.addProperty("Score", random.nextInt(200) / 2.0 + 0.25);
      }
      if (random.nextInt(3) != 0) {
        entity.addProperty("Active", random.nextBoolean());
      }
      if (random.nextInt(4) != 0) {
        entity.addProperty("Born", bornOf(random.nextInt(12)));
      }
      if (random.nextInt(3) == 0) {
        entity.addProperty("Mixed", random.nextBoolean() ? (Object) random.nextInt(10) : "m" + random.nextInt(10));
      }
      if (random.nextInt(3) == 0) {
        entity.addProperty("Id", new UUID(0, random.nextInt(5)));
      }
      if (random.nextInt(3) == 0) {
        entity.addProperty("Data", new byte[] {(byte) random.nextInt(4), 7});
      }
      entities.add(entity);
    }
    TestAccount.insert(table, entities);
    return table;
  }

  /** One of twelve instants, some of them 100 ns past a millisecond. */
  public static OffsetDateTime bornOf(int index) {
    return OffsetDateTime.of(1990 + index, 1 + index % 12, 1 + index, index, 30, 15, index % 2 == 0 ? 0 : 123_456_700,
        ZoneOffset.UTC);
  }
}
