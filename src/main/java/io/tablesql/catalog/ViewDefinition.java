package io.tablesql.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A view as the catalog keeps it: its name, its query (as Calcite unparses it: every identifier
 * quoted as declared) and the row type the query had when the view was created, which the view
 * keeps (later changes to its tables are cast to it). Written as JSON in catalog format {@value #FORMAT}.
 */
public record ViewDefinition(String name, String sql, List<ViewColumn> columns) {
  /** Views are written in catalog format 1, which every driver with views reads. */
  static final int FORMAT = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One column of a view's row type. */
  public record ViewColumn(String name, SqlTypeName type, int precision, int scale, boolean nullable) {
  }

  public ViewDefinition {
    columns = List.copyOf(columns);
  }

  /** The definition of a view whose query has the given row type. */
  public static ViewDefinition of(String name, String sql, RelDataType rowType) {
    List<ViewColumn> columns = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      RelDataType type = field.getType();
      columns.add(new ViewColumn(field.getName(), type.getSqlTypeName(),
          type.getSqlTypeName().allowsPrec() ? type.getPrecision() : -1,
          type.getSqlTypeName().allowsScale() ? type.getScale() : -1, type.isNullable()));
    }
    return new ViewDefinition(name, sql, columns);
  }

  /** The view's row type, as Calcite's view tables take it. */
  public RelProtoDataType rowType() {
    return (RelDataTypeFactory typeFactory) -> {
      RelDataTypeFactory.Builder builder = typeFactory.builder();
      for (ViewColumn column : columns) {
        RelDataType type = column.scale() >= 0 ? typeFactory.createSqlType(column.type(), column.precision(),
            column.scale()) : column.precision() >= 0 ? typeFactory.createSqlType(column.type(), column.precision())
            : typeFactory.createSqlType(column.type());
        builder.add(column.name(), typeFactory.createTypeWithNullability(type, column.nullable()));
      }
      return builder.build();
    };
  }

  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("name", name);
    root.put("sql", sql);
    ArrayNode nodes = root.putArray("columns");
    for (ViewColumn column : columns) {
      nodes.addObject().put("name", column.name()).put("type", column.type().name())
          .put("precision", column.precision()).put("scale", column.scale()).put("nullable", column.nullable());
    }
    return root.toString();
  }

  /**
   * Reads a definition written in any format up to {@link TableDefinition#FORMAT}.
   *
   * @throws IllegalArgumentException for a definition of a later format or a damaged one
   */
  public static ViewDefinition fromJson(String text) {
    try {
      JsonNode root = JSON.readTree(text);
      int format = root.path("format").asInt(-1);
      if (format < 1 || format > TableDefinition.FORMAT) {
        throw new IllegalArgumentException("catalog format " + format + " is newer than this driver reads ("
            + TableDefinition.FORMAT + "); use a newer tablesql");
      }
      List<ViewColumn> columns = new ArrayList<>();
      for (JsonNode node : root.path("columns")) {
        columns.add(new ViewColumn(node.path("name").asText(), SqlTypeName.valueOf(node.path("type").asText()),
            node.path("precision").asInt(-1), node.path("scale").asInt(-1), node.path("nullable").asBoolean()));
      }
      return new ViewDefinition(root.path("name").asText(), root.path("sql").asText(), columns);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable view definition: " + e.getMessage(), e);
    }
  }
}
