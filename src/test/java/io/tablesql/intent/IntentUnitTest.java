package io.tablesql.intent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.txn.EntityRules;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Format 1 of an intent, without a backend: what it writes, what it reads back, its sizes. */
class IntentUnitTest {
  private static Map<String, Object> everyType() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("Text", "Zoë \"quoted\" \u2603");
    values.put("Int", 42);
    values.put("Long", 1L << 40);
    values.put("Double", 42.0);
    values.put("NaN", Double.NaN);
    values.put("Flag", true);
    values.put("Bytes", new byte[] {0, -1, 7});
    values.put("Time", OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 123_456_700, ZoneOffset.UTC));
    values.put("Guid", UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff"));
    values.put("Gone", null);
    return values;
  }

  private static final OffsetDateTime CREATED = OffsetDateTime.parse("2026-11-24T10:00:00Z");

  private static Map<String, Object> headerOf(Intent.Records records) {
    assertThat(records.header().rowKey()).isEqualTo(Intent.HEADER);
    return records.header().properties();
  }

  private static List<Map<String, Object>> stepEntities(Intent.Records records) {
    List<Map<String, Object>> entities = new ArrayList<>();
    records.stepGroups().forEach(group -> group.forEach(w -> entities.add(w.properties())));
    return entities;
  }

  @Test
  void stepsReadBackAsWritten() throws SQLException {
    WriteOperation update = new WriteOperation("Orders", "p1", "r1", Kind.MERGE, everyType(), "W/\"etag-1\"", "UPDATE row 1");
    WriteOperation insert = new WriteOperation("Lines", "p2", "r2", Kind.INSERT, Map.of("N", 1), null, null);
    Intent intent = new Intent(Intent.newId(), "owner-1", List.of(
        new Intent.Step(0, update, everyType()), new Intent.Step(1, insert, null)));
    Intent.Records records = intent.records(Intent.State.APPLYING, null, CREATED);
    assertThat(records.stepGroups()).isEmpty(); // a small intent is one request: its header holds the steps
    WriteOperation written = records.header();
    assertThat(written.table()).isEqualTo(Intent.TABLE);
    assertThat(written.partitionKey()).isEqualTo(intent.id());
    assertThat(written.kind()).isEqualTo(Kind.INSERT);
    EntityRules.validate(written);

    Intent.Header header = Intent.header(intent.id(), headerOf(records));
    assertThat(header.format()).isEqualTo(1);
    assertThat(header.state()).isEqualTo(Intent.State.APPLYING);
    assertThat(header.owner()).isEqualTo("owner-1");
    assertThat(header.tables()).containsExactly("Lines", "Orders");
    assertThat(header.entities()).isEqualTo(2);
    assertThat(header.groups()).isEqualTo(2);
    assertThat(header.stepEntities()).isZero();
    assertThat(header.created()).isEqualTo(CREATED);
    assertThat(header.reason()).isNull();

    List<Intent.Step> read = Intent.read(header, headerOf(records), stepEntities(records)).steps();
    assertThat(read).hasSize(2);
    Intent.Step first = read.get(0);
    assertThat(first.group()).isZero();
    assertThat(first.write().table()).isEqualTo("Orders");
    assertThat(first.write().kind()).isEqualTo(Kind.MERGE);
    assertThat(first.write().etag()).isEqualTo("W/\"etag-1\"");
    assertThat(first.write().origin()).isEqualTo("UPDATE row 1");
    assertSameValues(first.write().properties(), everyType());
    assertSameValues(first.before(), everyType());
    assertThat(read.get(1).before()).isNull();
    assertThat(read.get(1).write().etag()).isNull();
    assertThat(read.get(1).write().properties()).isEqualTo(Map.of("N", 1));
  }

  private static void assertSameValues(Map<String, Object> actual, Map<String, Object> expected) {
    assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach((name, value) -> {
      if (value instanceof byte[] bytes) {
        assertThat((byte[]) actual.get(name)).isEqualTo(bytes);
      } else {
        assertThat(actual.get(name)).isEqualTo(value);
      }
    });
  }

  @Test
  void aLargeIntentIsCutIntoEntitiesAndGroupsTheServiceAccepts() throws SQLException {
    Random random = new Random(7);
    List<Intent.Step> steps = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      Map<String, Object> values = new HashMap<>();
      byte[] noise = new byte[1500]; // incompressible
      random.nextBytes(noise);
      values.put("Blob", noise);
      steps.add(new Intent.Step(i / 100, new WriteOperation("T", "p" + i / 100, "r" + i, Kind.INSERT, values, null,
          null), null));
    }
    Intent intent = new Intent(Intent.newId(), "o", steps);
    Intent.Records records = intent.records(Intent.State.APPLYING, null, CREATED);
    assertThat(records.stepGroups().size()).isGreaterThan(1);
    int entities = 0;
    for (List<WriteOperation> group : records.stepGroups()) {
      EntityRules.checkGroup(group); // 100 operations, 4 MiB, one partition, each entity once
      for (WriteOperation write : group) {
        EntityRules.validate(write); // 1 MiB an entity, 64 KiB a value, 252 properties
        entities++;
      }
    }
    EntityRules.validate(records.header());
    List<WriteOperation> all = new ArrayList<>(stepEntities(records).size() + 1);
    records.stepGroups().forEach(all::addAll);
    all.add(records.header()); // deleted together, in one entity group transaction
    EntityRules.checkGroup(all.stream().map(w -> new WriteOperation(w.table(), w.partitionKey(), w.rowKey(),
        Kind.DELETE, Map.of(), null, null)).toList());
    Intent.Header header = Intent.header(intent.id(), headerOf(records));
    assertThat(header.stepEntities()).isEqualTo(entities);
    assertThat(header.groups()).isEqualTo(30);
    List<Intent.Step> read = Intent.read(header, headerOf(records), stepEntities(records)).steps();
    assertThat(read).hasSize(3000);
    assertThat((byte[]) read.get(2999).write().properties().get("Blob"))
        .isEqualTo((byte[]) steps.get(2999).write().properties().get("Blob"));
  }

  @Test
  void aParkedIntentSaysWhyAndALaterFormatIsLeftAlone() {
    Intent intent = new Intent(Intent.newId(), "o", List.of(new Intent.Step(0,
        new WriteOperation("T", "p", "r", Kind.DELETE, Map.of(), "W/\"1\"", null), Map.of("N", 1))));
    Map<String, Object> header = new HashMap<>(headerOf(intent.records(Intent.State.PARKED, "row changed", CREATED)));
    assertThat(Intent.header(intent.id(), header).state()).isEqualTo(Intent.State.PARKED);
    assertThat(Intent.header(intent.id(), header).reason()).isEqualTo("row changed");
    header.put("format", Intent.FORMAT + 1);
    assertThatThrownBy(() -> Intent.read(Intent.header(intent.id(), header), header, List.of()))
        .hasMessageContaining("format " + (Intent.FORMAT + 1)).hasMessageContaining("later version");
  }

  @Test
  void anIntentThatKeepsViewsIsFormat2WhichFormat1DriversLeaveAlone() {
    List<Intent.Step> steps = List.of(new Intent.Step(0,
        new WriteOperation("T", "p", "r", Kind.INSERT, Map.of("N", 1), null, null), null));
    Map<String, Object> plain = headerOf(new Intent(Intent.newId(), "o", steps).records(Intent.State.APPLYING, null,
        CREATED));
    assertThat(plain.get("format")).isEqualTo(1);
    Intent derives = new Intent(Intent.newId(), "o", steps, true);
    Map<String, Object> header = headerOf(derives.records(Intent.State.APPLYING, null, CREATED));
    assertThat(header.get("format")).isEqualTo(2);
    Intent read = Intent.read(Intent.header(derives.id(), header), header, List.of());
    assertThat(read.derives()).isTrue();
    assertThat(read.steps()).hasSize(1);
  }

  @Test
  void aHandEditedHeaderIsReadAsTextOrRefusedAsUnreadable() {
    Intent intent = new Intent(Intent.newId(), "o", List.of(new Intent.Step(0,
        new WriteOperation("T", "p", "r", Kind.DELETE, Map.of(), "W/\"1\"", null), Map.of("N", 1))));
    Map<String, Object> header = new HashMap<>(headerOf(intent.records(Intent.State.APPLYING, null, CREATED)));
    header.put("tables", 7);
    header.put("owner", true);
    header.put("steps0", 12);
    Intent.Header read = Intent.header(intent.id(), header);
    assertThat(read.tables()).containsExactly("7");
    assertThat(read.owner()).isEqualTo("true");
    assertThatThrownBy(() -> Intent.read(read, header, List.of())).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot be read");
  }
}
