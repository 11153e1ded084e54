-- Summary entities: counts and totals kept per department, so that a BI tool's COUNT(*) and SUM
-- by department read one entity instead of the department's employees. Declared once
-- (sql-examples/setup/tables.sql):
--   CREATE MATERIALIZED VIEW PeopleByDepartment PRIMARY KEY ((Department))
--     AS SELECT Department, COUNT(*) AS Employees, SUM(Age) AS TotalAge FROM People
--     GROUP BY Department;
-- The query names People; the planner answers it from the summary: one request (EXPLAIN names
-- PeopleByDepartment). Every INSERT, UPDATE, UPSERT and DELETE of People changes the department's
-- totals by its rows' difference, once, however many writers there are.
-- Access path: POINT LOOKUP
SELECT COUNT(*) AS Employees, SUM(Age) AS TotalAge
FROM People
WHERE Department = 'Sales';
-- expect rows: 1

-- Every department's totals: a scan of the summary (one entity per department), not of People.
SELECT Department, COUNT(*), SUM(Age)
FROM People
GROUP BY Department;
-- expect rows: 4

-- A department with no employees has no summary entity, and COUNT(*) is 0 as SQL says.
SELECT COUNT(*)
FROM People
WHERE Department = 'Nowhere';
-- expect rows: 1

-- The summary can be named too.
SELECT Department, Employees, TotalAge
FROM PeopleByDepartment;
-- expect rows: 4
