package io.tablesql.query;

import io.tablesql.catalog.TableShape;
import java.util.List;
import org.apache.calcite.rel.core.TableModify;

/**
 * What a write statement does to a table: the operation, the shape its input rows follow (the
 * table's columns, then for UPDATE one new value per updated column), and the updated columns.
 */
public record WritePlan(StoredTable table, TableShape shape, TableModify.Operation operation,
    List<String> updatedColumns) {
}
