package io.tablesql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.KeyLayout.KeyColumn;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** How a large column's value is cut into parts of one entity and joined again, and how the catalog records it. */
class ValuePartsUnitTest {
  private static final Column BODY = Column.declared("Body", SqlTypeName.VARCHAR, false, -1, -1, true)
      .holdingLargeValues();
  private static final Column DATA = Column.declared("Data", SqlTypeName.VARBINARY, false, -1, -1, true)
      .holdingLargeValues();

  @Test
  void aValueThatFitsOnePropertyIsStoredAsAnyOther() throws SQLException {
    Map<String, Object> properties = new HashMap<>();
    ValueParts.put(properties, BODY, "x".repeat(ValueParts.TEXT_PART), false, null);
    assertThat(properties).containsOnlyKeys("Body");
    ValueParts.put(properties, BODY, "short", true, null); // a merge disowns parts an earlier value may have left
    assertThat(properties).containsEntry("Body_TsN", 1);
  }

  @Test
  void textIsCutBetweenCharactersNeverInsideASurrogatePair() throws SQLException {
    String text = "a".repeat(ValueParts.TEXT_PART - 1) + "\uD83D\uDE00" + "b".repeat(40_000);
    Map<String, Object> properties = new HashMap<>();
    ValueParts.put(properties, BODY, text, false, null);
    assertThat((String) properties.get("Body")).hasSize(ValueParts.TEXT_PART - 1);
    assertThat((String) properties.get("Body_TsP2")).startsWith("\uD83D\uDE00");
    assertThat(properties.get("Body_TsN")).isEqualTo(3);
    assertThat(ValueParts.read(properties::get, "Body")).isEqualTo(text);
  }

  @Test
  void binaryIsCutEvery64KiB() throws SQLException {
    byte[] bytes = new byte[3 * ValueParts.BINARY_PART + 5];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    Map<String, Object> properties = new HashMap<>();
    ValueParts.put(properties, DATA, bytes, false, null);
    assertThat(properties.get("Data_TsN")).isEqualTo(4);
    assertThat((byte[]) properties.get("Data_TsP4")).hasSize(5);
    assertThat((byte[]) ValueParts.read(properties::get, "Data")).isEqualTo(bytes);
  }

  @Test
  void partsACountDoesNotCallForAreNotRead() {
    Map<String, Object> properties = Map.of("Body", "new", "Body_TsN", 1, "Body_TsP2", "left by an older value");
    assertThat(ValueParts.read(properties::get, "Body")).isEqualTo("new");
    assertThat(ValueParts.read(Map.<String, Object>of("Body", "plain")::get, "Body")).isEqualTo("plain");
  }

  @Test
  void aMissingPartIsAnErrorNotAShortValue() {
    Map<String, Object> properties = Map.of("Body", "first", "Body_TsN", 3, "Body_TsP2", "second");
    assertThatThrownBy(() -> ValueParts.read(properties::get, "Body")).isInstanceOf(Column.UnreadableValue.class)
        .hasMessageContaining("part 3 (Body_TsP3) is missing");
  }

  @Test
  void aValuePastSixteenPartsIsRefused() {
    assertThatThrownBy(() -> ValueParts.put(new HashMap<>(), BODY, "y".repeat(16 * ValueParts.TEXT_PART + 1), false, null))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22000"))
        .hasMessageContaining("Body").hasMessageContaining("1 MiB");
  }

  @Test
  void partPropertiesAreToldFromColumns() {
    assertThat(ValueParts.isPartProperty("Body_TsN")).isTrue();
    assertThat(ValueParts.isPartProperty("Body_TsP2")).isTrue();
    assertThat(ValueParts.isPartProperty("Body_TsP16")).isTrue();
    assertThat(ValueParts.isPartProperty("Body_TsP17")).isFalse();
    assertThat(ValueParts.isPartProperty("Body_TsP1")).isFalse();
    assertThat(ValueParts.isPartProperty("Body")).isFalse();
    assertThat(ValueParts.isPartProperty("_TsN")).isFalse();
    assertThat(ValueParts.isPartProperty("Body_TsRef")).isTrue();
    assertThat(ValueParts.columnOfReference("Body_TsRef")).isEqualTo("Body");
    assertThat(ValueParts.columnOfReference("Body_TsN")).isNull();
  }

  private static final Column DOC = Column.declared("Doc", SqlTypeName.VARCHAR, false, -1, -1, true).holdingBlobs();

  @Test
  void aValuePastTheEntityGoesToABlobAndKeepsItsFirstPartForComparisons() throws SQLException {
    String text = "\u00e9".repeat(16 * ValueParts.TEXT_PART + 1);
    Map<String, byte[]> written = new HashMap<>();
    Map<String, Object> properties = new HashMap<>();
    ValueParts.put(properties, DOC, text, false, (column, content) -> {
      BlobReference reference = BlobReference.create("Docs", content.length);
      written.put(reference.blobName(), content);
      return reference;
    });
    assertThat(properties).containsOnlyKeys("Doc", "Doc_TsN", "Doc_TsRef");
    assertThat(properties.get("Doc_TsN")).isEqualTo(0);
    assertThat((String) properties.get("Doc")).isEqualTo(text.substring(0, ValueParts.TEXT_PART));
    BlobReference reference = ValueParts.referenceIn(properties, "Doc");
    assertThat(reference.blobName()).startsWith("docs/");
    assertThat(reference.bytes()).isEqualTo(2L * text.length()); // UTF-8: two bytes for each é
    assertThat(BlobReference.parse((String) properties.get("Doc_TsRef"))).isEqualTo(reference);
    assertThat(ValueParts.read(properties::get, DOC, (column, r) -> written.get(r.blobName()))).isEqualTo(text);
    // a merge of a short value writes a count of 1, which disowns the reference
    ValueParts.put(properties, DOC, "short", true, null);
    assertThat(ValueParts.referenceIn(properties, "Doc")).isNull();
    assertThat(ValueParts.hasDisownedParts(properties, "Doc")).isTrue();
    assertThat(ValueParts.read(properties::get, DOC, null)).isEqualTo("short");
  }

  @Test
  void aColumnOfAnEarlierFormatKeepsItsValuesInTheEntity() {
    assertThatThrownBy(() -> ValueParts.put(new HashMap<>(), BODY, "y".repeat(16 * ValueParts.TEXT_PART + 1), false,
        (column, content) -> BlobReference.create("Docs", content.length)))
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22000"))
        .hasMessageContaining("created by a tablesql that kept no values in Blob storage");
  }

  @Test
  void aReferenceOfAnotherVersionIsAnErrorNotAValue() {
    Map<String, Object> properties = Map.of("Doc", "first", "Doc_TsN", 0, "Doc_TsRef", "v9;x;1");
    assertThatThrownBy(() -> ValueParts.read(properties::get, DOC, (column, r) -> new byte[0]))
        .isInstanceOf(Column.UnreadableValue.class).hasMessageContaining("no blob reference of version v1");
    // not one of tablesql's blobs: never kept, copied or deleted as one (writes and their clean-up)
    assertThat(ValueParts.referenceIn(properties, "Doc")).isNull();
  }

  @Test
  void aTableWhoseValuesMayBeBlobsIsCatalogFormat12AndReadsBack() {
    Column id = Column.declared("Id", SqlTypeName.INTEGER, false, -1, -1, false);
    TableDefinition table = new TableDefinition("Docs", "Docs", List.of(id, DOC), new KeyLayout(
        List.of(TableDefinition.keyColumn(id, false)), List.of()));
    assertThat(table.format()).isEqualTo(12);
    assertThat(TableDefinition.fromJson(table.toJson()).column("Doc").blobs()).isTrue();
    assertThat(TableDefinition.fromJson(table.toJson()).column("Doc").large()).isTrue();
  }

  @Test
  void aTableWithALargeColumnIsCatalogFormat9AndReadsBack() {
    Column id = Column.declared("Id", SqlTypeName.INTEGER, false, -1, -1, false);
    KeyColumn key = TableDefinition.keyColumn(id, false);
    TableDefinition table = new TableDefinition("Docs", "Docs", List.of(id, BODY), new KeyLayout(List.of(key),
        List.of()));
    assertThat(table.format()).isEqualTo(9);
    TableDefinition read = TableDefinition.fromJson(table.toJson());
    assertThat(read.column("Body").large()).isTrue();
    assertThat(read.column("Id").large()).isFalse();
    // a table of an earlier format keeps its columns as they were: one property per value
    TableDefinition small = new TableDefinition("Notes", "Notes", List.of(id,
        Column.declared("Body", SqlTypeName.VARCHAR, false, -1, -1, true)), new KeyLayout(List.of(key), List.of()));
    assertThat(small.format()).isEqualTo(1);
    assertThat(TableDefinition.fromJson(small.toJson()).column("Body").large()).isFalse();
  }

  @Test
  void aMappedColumnThatReferencesABlobIsCatalogFormat13AndReadsItsBlob() {
    Column id = Column.declared("Id", SqlTypeName.VARCHAR, false, -1, -1, false);
    Column body = Column.declared("Body", SqlTypeName.VARCHAR, false, -1, -1, true).referencingBlobs();
    assertThat(body.comparableAtService()).isFalse();
    TableDefinition table = new TableDefinition("Docs", "AppDocs", List.of(id, body), new KeyLayout(
        List.of(TableDefinition.keyColumn(id, false)), List.of()));
    assertThat(table.format()).isEqualTo(13);
    assertThat(TableDefinition.fromJson(table.toJson()).column("Body").referencesBlob()).isTrue();
    Map<String, Object> properties = Map.of("Body", "docs/a.txt");
    assertThat(ValueParts.valueOf(body, properties::get, new ValueParts.BlobReader() {
      @Override
      public byte[] read(Column column, BlobReference reference) {
        throw new AssertionError("not a value of tablesql's");
      }

      @Override
      public byte[] readNamed(Column column, String name) {
        return ("content of " + name).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      }
    })).isEqualTo("content of docs/a.txt");
    assertThatThrownBy(() -> ValueParts.valueOf(body, properties::get, null))
        .isInstanceOf(Column.UnreadableValue.class).hasMessageContaining("docs/a.txt");
  }
}
