package io.tablesql.plan;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * A window's rows do not come out in its input's order: Calcite's {@code EnumerableWindow} emits
 * them partition by partition, each sorted by the window's ORDER BY, but Calcite 1.41's collation
 * metadata says a Window keeps its input's order ({@code RelMdCollation.window}; CALCITE-7620,
 * fixed after 1.41). Over a scan in key order, the Calc above a window then claimed the key order,
 * and the planner dropped the query's own ORDER BY: {@code SELECT Id, RANK() OVER (ORDER BY V
 * DESC) FROM t ORDER BY Id} came back in V's order. This handler says a Window has no collation,
 * as Calcite now does, ahead of Calcite's own handlers.
 */
public final class WindowOrder implements MetadataHandler<BuiltInMetadata.Collation> {
  /** Calcite's metadata, with a Window's collation answered here. */
  public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(ImmutableList.of(
      ReflectiveRelMetadataProvider.reflectiveSource(new WindowOrder(), BuiltInMetadata.Collation.Handler.class),
      DefaultRelMetadataProvider.INSTANCE));

  private WindowOrder() {
  }

  /** No order: what the window's input had is lost, and its own is per partition only. */
  public ImmutableList<RelCollation> collations(Window window, RelMetadataQuery mq) {
    return ImmutableList.of();
  }

  @Override
  public MetadataDef<BuiltInMetadata.Collation> getDef() {
    return BuiltInMetadata.Collation.DEF;
  }
}
