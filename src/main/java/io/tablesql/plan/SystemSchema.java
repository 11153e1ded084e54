package io.tablesql.plan;

import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import io.tablesql.session.Session;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.TableFunctionImpl;

/**
 * The {@code tablesql} schema: the driver's own tables and functions, apart from the account's
 * tables. {@code pending_writes} lists the writes across entity groups; {@code suggest_tables}
 * finds the layouts of an Azure table's entities.
 */
public final class SystemSchema extends AbstractSchema {
  public static final String NAME = "tablesql";

  private final Session session;
  private final Table pendingWrites;

  SystemSchema(Session session, Table pendingWrites) {
    this.session = session;
    this.pendingWrites = pendingWrites;
  }

  /** The session of the connection a statement runs on, found through its root schema. */
  static Session session(DataContext root) {
    SchemaPlus schema = root.getRootSchema().getSubSchema(NAME);
    SystemSchema system = schema == null ? null : schema.unwrap(SystemSchema.class);
    if (system == null) {
      throw new IllegalStateException("the " + NAME + " schema is not this connection's");
    }
    return system.session;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    return Map.of(PendingWritesTable.NAME, pendingWrites);
  }

  @Override
  protected Multimap<String, Function> getFunctionMultimap() {
    return ImmutableMultimap.of(SuggestedTables.FUNCTION,
        TableFunctionImpl.create(SuggestedTables.class, "suggestTables"));
  }
}
