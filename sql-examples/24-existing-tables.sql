-- Existing tables: an application's Azure table holds several kinds of entity under key designs
-- of its own. tablesql.suggest_tables reads a sample spread over the table's key space and
-- returns one row per layout it finds: how its entities are told apart, its key templates with
-- typed fields, its columns and the CREATE TABLE ... OVER statement (column ddl) that maps it.
-- The email_ entities copy the employees: they are reported as their index entries.
-- Access path: none
SELECT layout, kind, discriminator, partition_key, row_key, sampled_entities
FROM TABLE(tablesql.suggest_tables('Employees'));
-- expect rows: 3

-- A compound RowKey ('2024-01_A007') becomes two fields; fields that no property names get
-- generic names to change before running the statement.
SELECT layout, partition_key, row_key, ddl
FROM TABLE(tablesql.suggest_tables('CustomerOrders'));
-- expect rows: 1
