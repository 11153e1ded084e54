-- Compound key: RowKey = '<year-month>_<order>' puts a customer's orders in date order, so a
-- period is a range of RowKeys in one partition. CustomerOrder reads the key's parts as columns
-- (ROW KEY '{YearMonth:7}_{OrderId}'), and a range of months becomes that range of RowKeys.
-- Access path: RANGE SCAN
SELECT YearMonth, OrderId, Total
FROM CustomerOrder
WHERE CustomerId = 'cust002' AND YearMonth >= '2024-04' AND YearMonth < '2024-07';
-- expect rows: 3

-- The same range on the Azure table itself.
SELECT RowKey, Total
FROM CustomerOrders
WHERE PartitionKey = 'cust002' AND RowKey >= '2024-04' AND RowKey < '2024-07';
-- expect rows: 3
