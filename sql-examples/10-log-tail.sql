-- Log tail: RowKey = (DateTime.MaxValue.Ticks - event ticks), zero-padded, so the newest event
-- sorts first and "the last 5 events" is the first page of the partition, stopped after 5.
-- Access path: PARTITION SCAN
SELECT RowKey, Level, Message
FROM AppLogs
WHERE PartitionKey = 'app-2024-01-15'
ORDER BY PartitionKey, RowKey
LIMIT 5;
-- expect rows: 5
