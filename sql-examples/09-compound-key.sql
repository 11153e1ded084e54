-- Compound key: RowKey = '<year-month>_<order>' puts a customer's orders in date order, so a
-- period is a range of RowKeys in one partition.
-- Access path: RANGE SCAN
SELECT RowKey, Total
FROM CustomerOrders
WHERE PartitionKey = 'cust002' AND RowKey >= '2024-04' AND RowKey < '2024-07';
-- expect rows: 3
