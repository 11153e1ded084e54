package io.tablesql.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableEntity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutFinderUnitTest {
  @Test
  void aDiscriminatorSharedPrefixesGetTheirWhereClause() {
    List<TableEntity> sample = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sample.add(new TableEntity("c" + i, "item_" + i).addProperty("Kind", "Book").addProperty("Title", "t" + i));
      sample.add(new TableEntity("c" + i, "item_" + (i + 10)).addProperty("Kind", "Film").addProperty("Minutes", 90));
    }
    List<LayoutFinder.Layout> layouts = LayoutFinder.find("Items", sample);
    assertThat(layouts).extracting(LayoutFinder.Layout::name).containsExactlyInAnyOrder("Book", "Film");
    assertThat(layouts).allSatisfy(layout -> {
      assertThat(layout.discriminator()).isEqualTo("\"Kind\" = '" + layout.name() + "'");
      assertThat(layout.ddl()).endsWith(" WHERE \"Kind\" = '" + layout.name() + "'").doesNotContain("\"Kind\" VARCHAR");
      assertThat(layout.rowKeyTemplate()).isEqualTo("item_{RkValue}");
    });
  }

  @Test
  void compoundPaddedAndPlainNumericKeysBecomeTypedFields() {
    List<TableEntity> sample = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sample.add(new TableEntity(String.format("%05d", i * 7), "2024-0" + (i + 1) + "_A" + i)
          .addProperty("Total", 1.5 * i));
    }
    LayoutFinder.Layout orders = LayoutFinder.find("CustomerOrders", sample).get(0);
    assertThat(orders.name()).isEqualTo("CustomerOrder");
    assertThat(orders.partitionKeyTemplate()).isEqualTo("{PkValue:5}");
    assertThat(orders.rowKeyTemplate()).isEqualTo("{RkValue}_{RkValue2}");
    assertThat(orders.columns()).isEqualTo("\"PkValue\" INT, \"RkValue\" VARCHAR, \"RkValue2\" VARCHAR, \"Total\" DOUBLE");

    List<TableEntity> logs = new ArrayList<>();
    for (long i = 0; i < 4; i++) {
      logs.add(new TableEntity("app", String.valueOf(2516969375999999999L - i * 1000)).addProperty("Level", "INFO"));
    }
    LayoutFinder.Layout log = LayoutFinder.find("AppLogs", logs).get(0);
    assertThat(log.partitionKeyTemplate()).isEqualTo("app");
    assertThat(log.rowKeyTemplate()).isEqualTo("{RkValue}");
    assertThat(log.columns()).startsWith("\"RkValue\" BIGINT");
  }

  @Test
  void numbersOfMixedWidthsWithLeadingZerosStayText() {
    List<TableEntity> sample = List.of(new TableEntity("p", "007"), new TableEntity("p", "0042"),
        new TableEntity("q", "1"));
    assertThat(LayoutFinder.find("Odd", sample).get(0).columns()).contains("\"RkValue\" VARCHAR");
  }
}
