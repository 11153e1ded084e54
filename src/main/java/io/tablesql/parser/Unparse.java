package io.tablesql.parser;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;

/** Pieces of SQL text the statements of the grammar write back alike. */
final class Unparse {
  private Unparse() {
  }

  /** {@code KEYWORD (a, b, ...)}. */
  static void keywordAndList(SqlWriter writer, String keyword, Iterable<SqlNode> items) {
    writer.keyword(keyword);
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode item : items) {
      writer.sep(",");
      item.unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }
}
