package io.tablesql.intent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A durable intent, format 1 (docs/architecture/intents.md, "Writes across partitions"): everything needed to
 * finish a write of several entity groups and to undo it, as the entities of one partition of
 * {@link #TABLE}. This class only maps an intent to entity writes and back; it sends nothing.
 *
 * <p>The steps are one JSON array, gzipped and base64-encoded, cut into string properties of
 * {@link #PIECE} characters ({@code steps0}, {@code steps1}, ...), {@link #PIECES_PER_ENTITY} to
 * an entity (RowKeys {@code step-00000}, ...): ASCII, so a piece's size in an entity and in a
 * request is known exactly.
 */
public final class Intent {
  public static final String TABLE = "TablesqlIntents";
  /**
   * The newest format this class reads and writes: 1, a write of rows; 2, the same for a write of
   * tables with materialized views, whose views are repaired once its rows are applied (drivers
   * that know only format 1 leave it alone rather than finish it without its views); 3, a write
   * whose rows carry its {@link RowMarks#MARK} (and whose header says in {@code derives} whether views
   * follow it): its groups are judged by the mark, which drivers that know only formats 1 and 2
   * cannot read, so they leave it alone; 4, the same with a commit point, the header's state
   * {@code committed} (format 3 had none: its committer deleted the intent), which readers ask
   * (docs/architecture/intents.md, "Readers see committed data only"); 5, the same with deletes written as
   * {@link RowMarks#isTombstone tombstones} until the commit point, removed after it.
   */
  public static final int FORMAT = 5;
  private static final int FORMAT_COMMIT_STATE = 4;
  private static final int FORMAT_OF_ROWS_ONLY = 1;
  private static final int FORMAT_WITH_VIEWS = 2;
  private static final int FORMAT_MARKED = 3;
  /**
   * Names, on an entity as read (never on one written: it is not a user property), the intent
   * whose uncommitted write of the row was replaced by the row as it was before: a writer must
   * not build on that version, whose ETag it does not have.
   */
  public static final String BEFORE_IMAGE = "odata.tablesqlBeforeImage";
  public static final String HEADER = "header";
  /** Characters of one property: 64,000 bytes as the service counts strings (UTF-16), under 64 KiB. */
  static final int PIECE = 32_000;
  /** Pieces per entity: 960,000 bytes, under the 1 MiB of an entity. */
  static final int PIECES_PER_ENTITY = 15;
  /** Entities per entity group transaction: 8 x 480,000 bytes of base64, under its 4 MiB. */
  static final int ENTITIES_PER_GROUP = 8;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * States of an intent: being applied, being undone, parked with a reason, committed with its
   * materialized views still to follow (formats 2 to 4: every group was applied, so recovery only
   * brings the views up to date), or committed (format 4: its marks are being cleared).
   */
  public enum State { APPLYING, UNDOING, PARKED, DERIVING, COMMITTED;

    /** Whether the intent's writes are committed: readers read its rows as they are. */
    public boolean committed() {
      return this == DERIVING || this == COMMITTED;
    }
  }

  /**
   * One write of the intent: the group it is sent in, the write (conditional on the row before:
   * its ETag, or absence for an insert), and the row before it (its properties; null if the row
   * did not exist), which an undo writes back.
   */
  public record Step(int group, WriteOperation write, Map<String, Object> before) {
  }

  /** What the header says about an intent, as listed without its steps. */
  public record Header(String id, int format, State state, String owner, OffsetDateTime created, List<String> tables,
      int entities, int groups, int stepEntities, String reason, java.util.Set<Integer> undo) {
  }

  private final String id;
  private final String owner;
  private final List<Step> steps;
  /** Whether its writes keep materialized views (format 2, or 3 with {@code derives}). */
  private final boolean derives;
  /** Whether the rows it writes carry its {@link RowMarks#MARK} (format 3). */
  private final boolean marked;
  private final int format;

  public Intent(String id, String owner, List<Step> steps) {
    this(id, owner, steps, false);
  }

  public Intent(String id, String owner, List<Step> steps, boolean derives) {
    this(id, owner, steps, derives, false);
  }

  public Intent(String id, String owner, List<Step> steps, boolean derives, boolean marked) {
    this(id, owner, steps, derives, marked, marked ? FORMAT : derives ? FORMAT_WITH_VIEWS : FORMAT_OF_ROWS_ONLY);
  }

  private Intent(String id, String owner, List<Step> steps, boolean derives, boolean marked, int format) {
    this.id = id;
    this.owner = owner;
    this.steps = List.copyOf(steps);
    this.derives = derives;
    this.marked = marked;
    this.format = format;
  }

  /** Whether it commits by setting its header's state to {@code committed} (format 4). */
  public boolean hasCommitState() {
    return format >= FORMAT_COMMIT_STATE;
  }

  /** Whether materialized views are repaired once its rows are applied. */
  public boolean derives() {
    return derives;
  }

  /** Whether the rows it inserts and updates carry its {@link RowMarks#MARK}. */
  public boolean marked() {
    return marked;
  }

  /** Whether this version of tablesql reads and settles intents of a format. */
  public static boolean knows(int format) {
    return format >= FORMAT_OF_ROWS_ONLY && format <= FORMAT;
  }

  /** Whether a name is the intents' table, which is no table of the user's. */
  public static boolean isIntentTable(String name) {
    return TABLE.equalsIgnoreCase(name);
  }

  public static String newId() {
    return UUID.randomUUID().toString();
  }

  public String id() {
    return id;
  }

  public List<Step> steps() {
    return steps;
  }

  /**
   * The writes that record an intent: the step entities, as entity group transactions, and the
   * header, written alone and last (its answer's ETag is the lease's), so that an intent exists
   * only once all its steps do. A small intent's steps are in its header: one request.
   */
  public record Records(List<List<WriteOperation>> stepGroups, WriteOperation header) {
  }

  /** Step entities an intent may have: its entities are deleted in one entity group transaction with the header. */
  public static final int MAX_STEP_ENTITIES = 99;

  /** The writes that record this intent; throws IllegalArgumentException if it needs more than {@link #MAX_STEP_ENTITIES}. */
  public Records records(State state, String reason, OffsetDateTime created) {
    List<String> pieces = pieces(encode(steps));
    if (pieces.size() <= PIECES_PER_ENTITY) {
      Map<String, Object> header = headerProperties(state, reason, 0, created);
      putPieces(header, pieces);
      return new Records(List.of(), insert(HEADER, header));
    }
    List<WriteOperation> stepEntities = new ArrayList<>();
    for (int e = 0; e * PIECES_PER_ENTITY < pieces.size(); e++) {
      Map<String, Object> properties = new LinkedHashMap<>();
      putPieces(properties, pieces.subList(e * PIECES_PER_ENTITY, Math.min(pieces.size(), (e + 1) * PIECES_PER_ENTITY)));
      stepEntities.add(insert(stepRowKey(e), properties));
    }
    if (stepEntities.size() > MAX_STEP_ENTITIES) {
      throw new IllegalArgumentException("its steps take " + stepEntities.size() + " entities of " + TABLE
          + ", more than the " + MAX_STEP_ENTITIES + " an intent holds");
    }
    List<List<WriteOperation>> groups = new ArrayList<>();
    for (int from = 0; from < stepEntities.size(); from += ENTITIES_PER_GROUP) {
      groups.add(new ArrayList<>(stepEntities.subList(from, Math.min(stepEntities.size(), from + ENTITIES_PER_GROUP))));
    }
    return new Records(groups, insert(HEADER, headerProperties(state, reason, stepEntities.size(), created)));
  }

  private static void putPieces(Map<String, Object> properties, List<String> pieces) {
    for (int p = 0; p < pieces.size(); p++) {
      properties.put("steps" + p, pieces.get(p));
    }
  }

  private Map<String, Object> headerProperties(State state, String reason, int stepEntities, OffsetDateTime created) {
    TreeSet<String> tables = new TreeSet<>();
    TreeSet<Integer> groups = new TreeSet<>();
    for (Step step : steps) {
      tables.add(step.write().table());
      groups.add(step.group());
    }
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("format", format);
    if (marked) {
      properties.put("derives", derives);
    }
    properties.put("state", stateName(state));
    properties.put("owner", owner);
    properties.put("created", created);
    properties.put("tables", String.join(",", tables));
    properties.put("entities", steps.size());
    properties.put("groups", groups.size());
    properties.put("stepEntities", stepEntities);
    if (reason != null) {
      properties.put("reason", reason);
    }
    return properties;
  }

  /** A state as the header stores it. */
  public static String stateName(State state) {
    return state.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The header of an intent from its entity's properties (values as the SDK reads them). */
  public static Header header(String id, Map<String, Object> properties) {
    int format = number(properties.get("format"));
    State state = null;
    Object stateName = properties.get("state");
    for (State candidate : State.values()) {
      if (candidate.name().equalsIgnoreCase(String.valueOf(stateName))) {
        state = candidate;
      }
    }
    String tables = text(properties.get("tables"));
    return new Header(id, format, state, text(properties.get("owner")),
        properties.get("created") instanceof OffsetDateTime created ? created : null,
        tables == null || tables.isEmpty() ? List.of() : List.of(tables.split(",")),
        number(properties.get("entities")), number(properties.get("groups")), number(properties.get("stepEntities")),
        text(properties.get("reason")), groupNumbers(properties.get("undo")));
  }

  /**
   * An intent from its header and step entities' properties (in RowKey order); refuses a format
   * this driver does not know, which a later driver wrote, and steps it cannot read.
   */
  public static Intent read(Header header, Map<String, Object> headerProperties,
      List<Map<String, Object>> stepEntities) {
    if (!knows(header.format())) {
      throw new IllegalStateException("Intent " + header.id() + " has format " + header.format() + ", which this "
          + "version of tablesql does not know (it knows " + FORMAT + "): a later version wrote it. Leave it to that "
          + "version.");
    }
    if (stepEntities.size() != header.stepEntities()) {
      throw new IllegalStateException("Intent " + header.id() + " has " + stepEntities.size() + " step entities where "
          + "its header names " + header.stepEntities() + ".");
    }
    StringBuilder text = new StringBuilder();
    List<Map<String, Object>> entities = new ArrayList<>();
    entities.add(headerProperties);
    entities.addAll(stepEntities);
    for (Map<String, Object> entity : entities) {
      for (int p = 0; entity.get("steps" + p) != null; p++) {
        text.append(entity.get("steps" + p));
      }
    }
    try {
      boolean marked = header.format() >= FORMAT_MARKED;
      boolean derives = header.format() == FORMAT_WITH_VIEWS
          || marked && Boolean.TRUE.equals(headerProperties.get("derives"));
      return new Intent(header.id(), header.owner(), decode(text.toString()), derives, marked, header.format());
    } catch (RuntimeException e) {
      throw new IllegalStateException("The steps of intent " + header.id() + " cannot be read ("
          + e.getClass().getSimpleName() + ").", e);
    }
  }

  /** The groups an undoing intent may have applied ({@code undo}: "0,2"); null when not recorded. */
  private static java.util.Set<Integer> groupNumbers(Object undo) {
    if (!(undo instanceof String text)) {
      return null;
    }
    java.util.Set<Integer> groups = new java.util.TreeSet<>();
    try {
      for (String number : text.split(",")) {
        if (!number.isBlank()) {
          groups.add(Integer.valueOf(number.trim()));
        }
      }
    } catch (NumberFormatException e) {
      return null; // not this driver's: every group is judged again
    }
    return groups;
  }

  public static String stepRowKey(int index) {
    return String.format("step-%05d", index);
  }

  private WriteOperation insert(String rowKey, Map<String, Object> properties) {
    return new WriteOperation(TABLE, id, rowKey, Kind.INSERT, properties, null, "intent " + id);
  }

  /** A header's text property; a value of another type (a hand-edited header) as its text. */
  private static String text(Object value) {
    return value == null ? null : value.toString();
  }

  private static int number(Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }

  private static List<String> pieces(String text) {
    List<String> pieces = new ArrayList<>();
    for (int from = 0; from < text.length(); from += PIECE) {
      pieces.add(text.substring(from, Math.min(text.length(), from + PIECE)));
    }
    return pieces;
  }

  // The JSON of steps: {"g": group, "t": table, "p": PartitionKey, "r": RowKey, "k": kind,
  // "e": ETag or absent, "o": origin, "w": properties written, "b": row before or absent}, each
  // property value a pair [type, text]: s string, i Int32, l Int64, d Double, b Boolean,
  // x binary (base64), t DateTime (ISO-8601), g Guid; a null value is [n].

  static String encode(List<Step> steps) {
    ArrayNode array = JSON.createArrayNode();
    for (Step step : steps) {
      WriteOperation write = step.write();
      ObjectNode node = array.addObject();
      node.put("g", step.group());
      node.put("t", write.table());
      node.put("p", write.partitionKey());
      node.put("r", write.rowKey());
      node.put("k", write.kind().name());
      if (write.etag() != null) {
        node.put("e", write.etag());
      }
      if (write.origin() != null) {
        node.put("o", write.origin());
      }
      node.set("w", properties(write.properties()));
      if (step.before() != null) {
        node.set("b", properties(step.before()));
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(bytes)) {
      zip.write(JSON.writeValueAsBytes(array));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  static List<Step> decode(String text) {
    JsonNode array;
    try (GZIPInputStream zip = new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      array = JSON.readTree(zip.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Step> steps = new ArrayList<>();
    for (JsonNode node : array) {
      WriteOperation write = new WriteOperation(node.get("t").asText(), node.get("p").asText(), node.get("r").asText(),
          Kind.valueOf(node.get("k").asText()), values(node.get("w")), node.has("e") ? node.get("e").asText() : null,
          node.has("o") ? node.get("o").asText() : null);
      steps.add(new Step(node.get("g").asInt(), write, node.has("b") ? values(node.get("b")) : null));
    }
    return steps;
  }

  private static ObjectNode properties(Map<String, Object> properties) {
    ObjectNode node = JSON.createObjectNode();
    properties.forEach((name, value) -> {
      ArrayNode pair = node.putArray(name);
      if (value == null) {
        pair.add("n");
      } else if (value instanceof String text) {
        pair.add("s").add(text);
      } else if (value instanceof Integer number) {
        pair.add("i").add(number.toString());
      } else if (value instanceof Long number) {
        pair.add("l").add(number.toString());
      } else if (value instanceof Double number) {
        pair.add("d").add(number.toString());
      } else if (value instanceof Boolean flag) {
        pair.add("b").add(flag.toString());
      } else if (value instanceof byte[] binary) {
        pair.add("x").add(Base64.getEncoder().encodeToString(binary));
      } else if (value instanceof OffsetDateTime time) {
        pair.add("t").add(time.toString());
      } else if (value instanceof UUID guid) {
        pair.add("g").add(guid.toString());
      } else {
        throw new IllegalArgumentException("An intent cannot hold a value of " + value.getClass().getName()
            + " (property " + name + ")");
      }
    });
    return node;
  }

  private static Map<String, Object> values(JsonNode node) {
    Map<String, Object> values = new LinkedHashMap<>();
    node.fields().forEachRemaining(field -> {
      JsonNode pair = field.getValue();
      String type = pair.get(0).asText();
      String text = pair.size() > 1 ? pair.get(1).asText() : null;
      values.put(field.getKey(), switch (type) {
        case "n" -> null;
        case "s" -> text;
        case "i" -> Integer.valueOf(text);
        case "l" -> Long.valueOf(text);
        case "d" -> Double.valueOf(text);
        case "b" -> Boolean.valueOf(text);
        case "x" -> Base64.getDecoder().decode(text);
        case "t" -> OffsetDateTime.parse(text);
        case "g" -> UUID.fromString(text);
        default -> throw new IllegalStateException("An intent holds a value of unknown type '" + type + "'");
      });
    });
    return values;
  }
}
