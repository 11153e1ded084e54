-- Data series: one entity per sensor and day holds 24 hourly readings (H00..H23), so a day is
-- one point query and a week a range of seven entities.
-- Access path: RANGE SCAN
SELECT RowKey, H00, H06, H12, H18
FROM SensorReadings
WHERE PartitionKey = 'sensor-1' AND RowKey BETWEEN '2024-03-01' AND '2024-03-02';
-- expect rows: 2
