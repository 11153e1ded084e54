-- Wide entities: one survey response per entity with 120 answers (Q001..Q120). An entity holds
-- at most 252 properties; the projection asks only for the columns used ($select).
-- Access path: PARTITION SCAN
SELECT RowKey, Q001, Q060, Q120
FROM Surveys
WHERE PartitionKey = 'survey';
-- expect rows: 3
