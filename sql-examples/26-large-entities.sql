-- Large entities: a column declared without a length (VARCHAR, VARBINARY, TEXT, CLOB, BLOB)
-- holds values longer than one property's 64 KiB, up to 256 MiB. Up to the row entity's 1 MiB,
-- tablesql keeps a long value in parts of the row's own entity (Body, Body_TsP2, ..., Body_TsN),
-- so the row is still one entity: read and written in one request, atomic as any other. Past
-- that it follows the guide's large-entities pattern: the value is a blob of the account's
-- container tablesql-values, written before the row that names it (Body_TsRef), read with one
-- more request, and deleted after the row stops naming it.
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

-- 2,200,000 characters: past the entity, so kept in a blob. A query that names only Title
-- never reads it.
INSERT INTO Articles VALUES (2, 'A longer read', REPEAT('All work and no play. ', 100000));
-- expect updated: 1

SELECT Id, Title, CHAR_LENGTH(Body) AS Characters
FROM Articles
WHERE Id = 2;
-- expect rows: 1

-- The row no longer names the blob once its value is short again: the blob is deleted.
UPDATE Articles SET Body = 'Short again.' WHERE Id = 2;
-- expect updated: 1

DROP TABLE Articles;
-- expect updated: 0
