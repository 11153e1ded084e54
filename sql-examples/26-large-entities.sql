-- Large entities: a column declared without a length (VARCHAR, VARBINARY, TEXT, CLOB, BLOB)
-- holds values longer than one property's 64 KiB, up to the row entity's 1 MiB. tablesql keeps
-- a long value in parts of the row's own entity (Body, Body_TsP2, ..., Body_TsN), so the row
-- is still one entity: read and written in one request, atomic as any other. The guide's
-- pattern of a blob per large value is for values past 1 MiB (designed, not built yet).
-- Access path: POINT LOOKUP
CREATE TABLE Articles (Id INT PRIMARY KEY, Title VARCHAR(200), Body CLOB);
-- expect updated: 0

INSERT INTO Articles VALUES (1, 'A long read', REPEAT('All work and no play. ', 10000));
-- expect updated: 1

-- 220,000 characters, read back whole by one GET; a query that names only Title reads no part.
SELECT Id, Title, CHAR_LENGTH(Body) AS Characters
FROM Articles
WHERE Id = 1;
-- expect rows: 1

-- A comparison on Body is sent on its first part where that answers exactly, and checked again
-- in the client on the whole value.
SELECT Id FROM Articles WHERE Body LIKE 'All work%' AND Body LIKE '%play. ';
-- expect rows: 1

DROP TABLE Articles;
-- expect updated: 0
