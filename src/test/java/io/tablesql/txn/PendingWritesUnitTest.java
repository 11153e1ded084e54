package io.tablesql.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tablesql.txn.WriteOperation.Kind;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The combination table of pending writes, checked against a model of what the service does to
 * one entity: for each pair of writes a transaction can make to one entity, and each state the
 * entity can be in at the service, the combined operation leaves what the two would.
 */
class PendingWritesUnitTest {
  /** An entity at the service: absent (empty) or its properties. */
  private static Optional<Map<String, Object>> apply(Optional<Map<String, Object>> entity, WriteOperation write) {
    if (write == null) {
      return entity;
    }
    Map<String, Object> properties = write.properties();
    switch (write.kind()) {
      case INSERT:
        if (entity.isPresent()) {
          throw new IllegalStateException("exists");
        }
        return Optional.of(Map.copyOf(properties));
      case UPSERT_REPLACE:
        return Optional.of(Map.copyOf(properties));
      case UPSERT_MERGE:
        return Optional.of(merged(entity.orElse(Map.of()), properties));
      case MERGE:
        return Optional.of(merged(entity.orElseThrow(() -> new IllegalStateException("missing")), properties));
      case REPLACE:
        entity.orElseThrow(() -> new IllegalStateException("missing"));
        return Optional.of(Map.copyOf(properties));
      case DELETE_IF_PRESENT:
        return Optional.empty(); // what the commit makes of it, reading the entity first
      default:
        entity.orElseThrow(() -> new IllegalStateException("missing"));
        return Optional.empty();
    }
  }

  private static Map<String, Object> merged(Map<String, Object> base, Map<String, Object> changes) {
    Map<String, Object> result = new HashMap<>(base);
    result.putAll(changes);
    return Map.copyOf(result);
  }

  private static Optional<Map<String, Object>> outcome(Optional<Map<String, Object>> start, WriteOperation... writes) {
    try {
      Optional<Map<String, Object>> entity = start;
      for (WriteOperation write : writes) {
        entity = apply(entity, write);
      }
      return entity;
    } catch (IllegalStateException refused) {
      return null;
    }
  }

  /** The writes a statement makes; DELETE_IF_PRESENT only comes of combining them, TOMBSTONE of an intent's commit. */
  private static final List<Kind> STATEMENT_KINDS = java.util.Arrays.stream(Kind.values())
      .filter(kind -> kind != Kind.DELETE_IF_PRESENT && kind != Kind.TOMBSTONE).toList();

  /** What a transaction's pending write of an entity can be: a statement's, or a combination's. */
  private static List<Kind> pendingKinds() {
    return java.util.Arrays.stream(Kind.values()).filter(kind -> kind != Kind.TOMBSTONE).toList();
  }

  private static WriteOperation write(Kind kind, Map<String, Object> properties, String etag) {
    return new WriteOperation("Orders", "p", "r", kind, properties, etag, "test");
  }

  /**
   * What the statement before a write could have seen of the entity, so which writes follow which:
   * an UPDATE or DELETE finds the entity only where the earlier write leaves it existing.
   */
  private static boolean reachable(Kind earlier, Kind next) {
    boolean existsAfterEarlier = !earlier.deletes();
    boolean needsExisting = next == Kind.MERGE || next == Kind.REPLACE || next == Kind.DELETE;
    return !needsExisting || existsAfterEarlier;
  }

  @Test
  void everyCombinationLeavesWhatTheTwoWritesWouldFromEveryStartingState() throws SQLException {
    Map<String, Object> stored = Map.of("a", 1, "b", "old");
    List<Optional<Map<String, Object>>> starts = List.of(Optional.empty(), Optional.of(stored));
    Map<String, Object> first = Map.of("b", "first", "c", true);
    Map<String, Object> second = Map.of("c", false, "d", 4L);
    int checked = 0;
    for (Kind earlierKind : pendingKinds()) {
      for (Kind nextKind : STATEMENT_KINDS) {
        if (!reachable(earlierKind, nextKind)) {
          continue;
        }
        WriteOperation earlier = write(earlierKind, earlierKind.deletes() ? Map.of() : first, null);
        WriteOperation next = write(nextKind, nextKind == Kind.DELETE ? Map.of() : second, null);
        if (nextKind == Kind.INSERT && !earlierKind.deletes()) {
          SQLException e = assertThrows(SQLException.class, () -> PendingWrites.combine(earlier, next));
          assertEquals("23505", e.getSQLState());
          continue;
        }
        WriteOperation combined = PendingWrites.combine(earlier, next);
        for (Optional<Map<String, Object>> start : starts) {
          Optional<Map<String, Object>> expected = outcome(start, earlier, next);
          if (expected == null) {
            continue; // the pair fails from this state: nothing to preserve
          }
          Optional<Map<String, Object>> actual = outcome(start, combined);
          if (earlierKind == Kind.INSERT && nextKind == Kind.DELETE) {
            assertNull(combined, "an insert deleted again sends nothing");
          } else if (nextKind == Kind.DELETE && (earlierKind == Kind.UPSERT_MERGE
              || earlierKind == Kind.UPSERT_REPLACE)) {
            // no single operation deletes if present: the commit reads the entity to decide
            assertEquals(Kind.DELETE_IF_PRESENT, combined.kind());
          }
          assertEquals(expected, actual, earlierKind + " then " + nextKind + " from " + start + " as "
              + (combined == null ? "nothing" : combined.kind() + " " + combined.properties()));
          checked++;
        }
      }
    }
    assertTrue(checked >= 36, checked + " combinations checked");
  }

  @Test
  void everyChainOfThreeStatementsLeavesWhatTheyWouldFromEveryStartingState() throws SQLException {
    List<Map<String, Object>> values = List.of(Map.of("b", "first", "c", true), Map.of("c", false, "d", 4L),
        Map.of("a", 2, "e", "third"));
    int checked = 0;
    for (Kind a : STATEMENT_KINDS) {
      for (Kind b : STATEMENT_KINDS) {
        for (Kind c : STATEMENT_KINDS) {
          if (!reachable(a, b) || !reachable(b, c)) {
            continue;
          }
          List<Kind> kinds = List.of(a, b, c);
          WriteOperation[] writes = new WriteOperation[3];
          for (int i = 0; i < 3; i++) {
            writes[i] = write(kinds.get(i), kinds.get(i) == Kind.DELETE ? Map.of() : values.get(i), null);
          }
          PendingWrites pending = new PendingWrites(true);
          try {
            for (WriteOperation write : writes) {
              pending.add(List.of(write));
            }
          } catch (SQLException duplicate) {
            assertEquals("23505", duplicate.getSQLState(), kinds.toString());
            continue;
          }
          WriteOperation combined = pending.get(writes[0].key());
          for (Optional<Map<String, Object>> start : List.of(Optional.<Map<String, Object>>empty(),
              Optional.of(Map.<String, Object>of("a", 1, "b", "old")))) {
            Optional<Map<String, Object>> expected = outcome(start, writes);
            if (expected != null) {
              assertEquals(expected, outcome(start, combined), kinds + " from " + start + " as "
                  + (combined == null ? "nothing" : combined.kind() + " " + combined.properties()));
              checked++;
            }
          }
        }
      }
    }
    assertTrue(checked >= 100, checked + " chains checked");
  }

  @Test
  void aDeleteOfAnEntityOfUnknownExistenceIsLeftToTheCommitToResolve() throws SQLException {
    Map<String, Object> x = Map.of("x", 1);
    PendingWrites inserted = new PendingWrites(true);
    inserted.add(List.of(write(Kind.INSERT, x, null)));
    inserted.add(List.of(write(Kind.MERGE, Map.of("y", 2), null)));
    inserted.add(List.of(write(Kind.DELETE, Map.of(), null)));
    assertTrue(inserted.isEmpty(), "an insert updated and deleted again sends nothing");

    PendingWrites upserted = new PendingWrites(true);
    upserted.add(List.of(write(Kind.UPSERT_MERGE, x, null)));
    upserted.add(List.of(write(Kind.REPLACE, Map.of("y", 2), null)));
    upserted.add(List.of(write(Kind.DELETE, Map.of(), null)));
    assertEquals(Kind.DELETE_IF_PRESENT, upserted.drain().get(0).kind());

    // a delete conditional on the ETag read keeps the entity's existence a condition of the commit
    WriteOperation deleteUpsertDelete = PendingWrites.combine(PendingWrites.combine(
        write(Kind.DELETE, Map.of(), "W/\"1\""), write(Kind.UPSERT_REPLACE, x, null)), write(Kind.DELETE, Map.of(), null));
    assertEquals(Kind.DELETE, deleteUpsertDelete.kind());
    assertEquals("W/\"1\"", deleteUpsertDelete.etag());
  }

  @Test
  void aDeleteThenInsertStaysConditionalOnTheEtagRead() throws SQLException {
    WriteOperation combined = PendingWrites.combine(write(Kind.DELETE, Map.of(), "W/\"1\""),
        write(Kind.INSERT, Map.of("x", 1), null));
    assertEquals(Kind.REPLACE, combined.kind());
    assertEquals("W/\"1\"", combined.etag());
    assertEquals(Map.of("x", 1), combined.properties());
    assertEquals(Kind.MERGE, PendingWrites.combine(write(Kind.MERGE, Map.of("x", 1), "e"),
        write(Kind.UPSERT_MERGE, Map.of("y", 2), null)).kind(), "the merge's need for an entity is kept");
  }

  @Test
  void aStatementBreakingTheGroupRulesIsRefusedWholeAndTheEarlierWritesStay() throws SQLException {
    PendingWrites pending = new PendingWrites(true);
    pending.add(List.of(write(Kind.INSERT, Map.of("x", 1), null)));
    WriteOperation otherPartition = new WriteOperation("Orders", "q", "r", Kind.INSERT, Map.of(), null, "s2");
    WriteOperation samePartition = new WriteOperation("Orders", "p", "r2", Kind.INSERT, Map.of(), null, "s2");
    SQLException e = assertThrows(SQLException.class, () -> pending.add(List.of(samePartition, otherPartition)));
    assertEquals("25000", e.getSQLState());
    assertEquals(1, pending.forTable("ORDERS").size(), "table names compare case-insensitively");
    pending.add(List.of(write(Kind.DELETE, Map.of(), null)));
    assertTrue(pending.isEmpty(), "an insert deleted again leaves nothing pending");
    SQLException duplicate = assertThrows(SQLException.class, () -> pending.add(List.of(
        write(Kind.UPSERT_MERGE, Map.of(), null), write(Kind.INSERT, Map.of(), null))));
    assertEquals("23505", duplicate.getSQLState());
    assertTrue(pending.isEmpty());
  }

  /** A savepoint goes back to the operations as they were, each entity's own; later savepoints go with it. */
  @Test
  void aSnapshotRestoresTheOperationsAsTheyWere() throws SQLException {
    PendingWrites pending = new PendingWrites(false);
    WriteOperation first = new WriteOperation("Orders", "p", "a", Kind.INSERT, Map.of("N", 1), null, "s1");
    pending.add(List.of(first));
    PendingWrites.Snapshot outer = pending.snapshot();
    pending.add(List.of(new WriteOperation("Orders", "p", "a", Kind.MERGE, Map.of("N", 2), null, "s2"),
        new WriteOperation("Orders", "p", "b", Kind.INSERT, Map.of("N", 3), null, "s2")));
    PendingWrites.Snapshot inner = pending.snapshot();
    pending.add(List.of(new WriteOperation("Orders", "p", "b", Kind.DELETE, Map.of(), null, "s3")));
    assertEquals(1, pending.forTable("Orders").size(), "b inserted then deleted: nothing pending for it");
    pending.restore(inner);
    assertEquals(2, pending.forTable("Orders").size());
    assertEquals(Map.of("N", 2), pending.get(first.key()).properties());
    pending.restore(outer);
    assertEquals(List.of(first), pending.forTable("Orders"));
    assertEquals(List.of(first), pending.drain());
    assertTrue(pending.isEmpty());
  }
}
