-- Log tail: the newest events first. EventLog is declared with PRIMARY KEY ((App), EventTime
-- DESC): one partition per application, and a RowKey that sorts the newest event first, so
-- "the last 5 events" is the first page of the partition with $top=5 and no sort.
-- Access path: PARTITION SCAN
SELECT EventTime, Level, Message
FROM EventLog
WHERE App = 'checkout'
ORDER BY EventTime DESC
LIMIT 5;
-- expect rows: 5

-- The design guide's version on a raw table: RowKey = (DateTime.MaxValue.Ticks - event ticks),
-- zero-padded, in one partition per day (a hot partition while the day lasts).
SELECT RowKey, Level, Message
FROM AppLogs
WHERE PartitionKey = 'app-2024-01-15'
ORDER BY PartitionKey, RowKey
LIMIT 5;
-- expect rows: 5
