-- Summary entities: counts and totals kept per department, so that a BI tool's COUNT(*) and SUM
-- by department read one entity instead of the department's employees. Declared once
-- (sql-examples/setup/tables.sql):
--   CREATE MATERIALIZED VIEW PeopleByDepartment PRIMARY KEY ((Department))
--     AS SELECT Department, COUNT(*) AS Employees, SUM(Age) AS TotalAge FROM People
--     GROUP BY Department;
-- One department's totals: the summary's key is the department, so naming it is one request.
-- Every INSERT, UPDATE, UPSERT and DELETE of People changes the department's totals by its rows'
-- difference, once, however many writers there are.
-- Access path: POINT LOOKUP
SELECT Employees, TotalAge
FROM PeopleByDepartment
WHERE Department = 'Sales';
-- expect rows: 1

-- Every department's totals: the query names People, and the planner answers it from the
-- summary (EXPLAIN names PeopleByDepartment): one entity per department, not every employee.
-- (The same question for one department, with WHERE Department = 'Sales', reads the department's
-- employees: a filter the planner pushed into the table's scan is not matched to a summary yet.)
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
