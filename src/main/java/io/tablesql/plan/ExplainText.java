package io.tablesql.plan;

import io.tablesql.catalog.Column;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBiVisitor;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSlot;
import org.apache.calcite.rex.RexVisitor;

/**
 * EXPLAIN's text of a condition a scan keeps for the client: Calcite's digest of it, with each
 * reference to a column of the scan shown by the column's name rather than its position.
 */
final class ExplainText {
  private ExplainText() {
  }

  static String of(RexNode condition, List<Column> columns) {
    return condition.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return ref.getIndex() < columns.size()
            ? new ColumnName(columns.get(ref.getIndex()).name(), ref.getIndex(), ref.getType()) : ref;
      }
    }).toString();
  }

  /** A column reference whose digest is the column's name; it exists only to be printed. */
  private static final class ColumnName extends RexSlot {
    ColumnName(String name, int index, RelDataType type) {
      super(name, index, type);
    }

    @Override
    public <R> R accept(RexVisitor<R> visitor) {
      throw new UnsupportedOperationException("a column name is only printed");
    }

    @Override
    public <R, P> R accept(RexBiVisitor<R, P> visitor, P arg) {
      throw new UnsupportedOperationException("a column name is only printed");
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof ColumnName name && name.getIndex() == getIndex() && name.getName().equals(getName());
    }

    @Override
    public int hashCode() {
      return getIndex();
    }
  }
}
