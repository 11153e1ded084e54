-- Tables over the sample data's key designs, declared once the dataset is loaded (by the shell
-- and the tests). Each maps entities an application wrote, with keys it composed, to a table of
-- typed columns; the entities themselves are not touched. See README, "Tables with a primary key".

-- The Employees table holds three kinds of entity in each department's partition: employees
-- under RowKey 'empid_<id>' (each holding its id as the text property EmployeeId too), the same
-- employees again under 'email_<address>' (an intra-partition secondary index) and one
-- 'department' entity. The email_ copies are adopted as an index of Employee: tablesql keeps
-- them as the application does, and a lookup by email reads the copy.
CREATE TABLE IF NOT EXISTS Employee (
  Department VARCHAR, EmployeeId INT, FirstName VARCHAR, LastName VARCHAR, Age INT, Email VARCHAR)
  OVER Employees PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (EmployeeId)
  WHERE EntityType = 'Employee';

CREATE INDEX IF NOT EXISTS EmployeeEmail ON Employee (Email) LOCAL ROW KEY 'email_{Email}';

CREATE TABLE IF NOT EXISTS EmployeeByEmail (
  Department VARCHAR, Email VARCHAR, EmployeeId VARCHAR, FirstName VARCHAR, LastName VARCHAR)
  OVER Employees PARTITION KEY '{Department}' ROW KEY 'email_{Email}';

CREATE TABLE IF NOT EXISTS DepartmentSummary (
  DepartmentName VARCHAR, EmployeeCount INT, Manager VARCHAR)
  OVER Employees PARTITION KEY '{DepartmentName}' ROW KEY 'department' WHERE EntityType = 'Department';

-- A customer's orders, RowKey '<year-month>_<order>': a compound key in date order.
CREATE TABLE IF NOT EXISTS CustomerOrder (CustomerId VARCHAR, YearMonth VARCHAR, OrderId VARCHAR, Total DOUBLE)
  OVER CustomerOrders PARTITION KEY '{CustomerId}' ROW KEY '{YearMonth:7}_{OrderId}';

-- Orders kept in the partition of the employee who took them (one-to-many).
CREATE TABLE IF NOT EXISTS EmployeeOrder (
  EmployeeId INT, OrderNo INT, Amount DOUBLE, EmployeeName VARCHAR, Department VARCHAR, OrderDate TIMESTAMP)
  OVER Orders PARTITION KEY '{EmployeeId:6}' ROW KEY 'order_{OrderNo:4}';

-- The same orders denormalized for another question, kept by tablesql: a department's orders
-- with who took them, in the department's own partition.
CREATE MATERIALIZED VIEW IF NOT EXISTS OrdersByDepartment PRIMARY KEY ((Department), EmployeeId, OrderNo)
  AS SELECT Department, EmployeeId, OrderNo, OrderDate, EmployeeName, Amount FROM EmployeeOrder
  WHERE Department IS NOT NULL;

-- A log tail designed with a declared key: one partition per application (not one hot
-- partition per day), newest event first.
CREATE TABLE IF NOT EXISTS EventLog (
  App VARCHAR, EventTime TIMESTAMP, Level VARCHAR, Message VARCHAR,
  PRIMARY KEY ((App), EventTime DESC));

UPSERT INTO EventLog (App, EventTime, Level, Message) VALUES
  ('checkout', TIMESTAMP '2024-01-15 08:00:00', 'INFO', 'event 0'),
  ('search', TIMESTAMP '2024-01-15 08:07:00', 'INFO', 'event 1'),
  ('billing', TIMESTAMP '2024-01-15 08:14:00', 'WARN', 'event 2'),
  ('checkout', TIMESTAMP '2024-01-15 08:21:00', 'INFO', 'event 3'),
  ('search', TIMESTAMP '2024-01-15 08:28:00', 'ERROR', 'event 4'),
  ('billing', TIMESTAMP '2024-01-15 08:35:00', 'INFO', 'event 5'),
  ('checkout', TIMESTAMP '2024-01-15 08:42:00', 'INFO', 'event 6'),
  ('search', TIMESTAMP '2024-01-15 08:49:00', 'WARN', 'event 7'),
  ('billing', TIMESTAMP '2024-01-15 08:56:00', 'INFO', 'event 8'),
  ('checkout', TIMESTAMP '2024-01-15 09:03:00', 'ERROR', 'event 9'),
  ('search', TIMESTAMP '2024-01-15 09:10:00', 'INFO', 'event 10'),
  ('billing', TIMESTAMP '2024-01-15 09:17:00', 'INFO', 'event 11'),
  ('checkout', TIMESTAMP '2024-01-15 09:24:00', 'WARN', 'event 12'),
  ('search', TIMESTAMP '2024-01-15 09:31:00', 'INFO', 'event 13'),
  ('billing', TIMESTAMP '2024-01-15 09:38:00', 'ERROR', 'event 14'),
  ('checkout', TIMESTAMP '2024-01-15 09:45:00', 'INFO', 'event 15'),
  ('search', TIMESTAMP '2024-01-15 09:52:00', 'INFO', 'event 16'),
  ('billing', TIMESTAMP '2024-01-15 09:59:00', 'WARN', 'event 17'),
  ('checkout', TIMESTAMP '2024-01-15 10:06:00', 'INFO', 'event 18'),
  ('search', TIMESTAMP '2024-01-15 10:13:00', 'ERROR', 'event 19'),
  ('billing', TIMESTAMP '2024-01-15 10:20:00', 'INFO', 'event 20'),
  ('checkout', TIMESTAMP '2024-01-15 10:27:00', 'INFO', 'event 21'),
  ('search', TIMESTAMP '2024-01-15 10:34:00', 'WARN', 'event 22'),
  ('billing', TIMESTAMP '2024-01-15 10:41:00', 'INFO', 'event 23'),
  ('checkout', TIMESTAMP '2024-01-15 10:48:00', 'ERROR', 'event 24'),
  ('search', TIMESTAMP '2024-01-15 10:55:00', 'INFO', 'event 25'),
  ('billing', TIMESTAMP '2024-01-15 11:02:00', 'INFO', 'event 26'),
  ('checkout', TIMESTAMP '2024-01-15 11:09:00', 'WARN', 'event 27'),
  ('search', TIMESTAMP '2024-01-15 11:16:00', 'INFO', 'event 28'),
  ('billing', TIMESTAMP '2024-01-15 11:23:00', 'ERROR', 'event 29'),
  ('checkout', TIMESTAMP '2024-01-15 11:30:00', 'INFO', 'event 30'),
  ('search', TIMESTAMP '2024-01-15 11:37:00', 'INFO', 'event 31'),
  ('billing', TIMESTAMP '2024-01-15 11:44:00', 'WARN', 'event 32'),
  ('checkout', TIMESTAMP '2024-01-15 11:51:00', 'INFO', 'event 33'),
  ('search', TIMESTAMP '2024-01-15 11:58:00', 'ERROR', 'event 34'),
  ('billing', TIMESTAMP '2024-01-15 12:05:00', 'INFO', 'event 35');

-- The employees once more, as a table tablesql writes (keyed by department and id), with the
-- guide's secondary indexes declared instead of kept by hand: tablesql maintains them on every
-- INSERT, UPDATE, UPSERT and DELETE. See README, "Secondary indexes".
CREATE TABLE IF NOT EXISTS People (
  Department VARCHAR, EmployeeId INT, FirstName VARCHAR, LastName VARCHAR, Age INT, Email VARCHAR,
  PRIMARY KEY ((Department), EmployeeId));

UPSERT INTO People (Department, EmployeeId, FirstName, LastName, Age, Email)
  SELECT Department, EmployeeId, FirstName, LastName, Age, Email FROM Employee;

-- The inter-partition secondary index: an employee by email, whatever the department.
CREATE UNIQUE INDEX IF NOT EXISTS PeopleByEmail ON People (Email);

-- The inter-partition secondary index that duplicates the entity: the employees again, keyed by
-- email, kept by tablesql on every write. A query of People by email is answered from it.
CREATE MATERIALIZED VIEW IF NOT EXISTS PeopleByEmailCopy PRIMARY KEY ((Email))
  AS SELECT Email, Department, EmployeeId, FirstName, Age FROM People WHERE Email IS NOT NULL;

-- Summary entities: per department, the number of employees and the sum of their ages, kept by
-- tablesql on every write. Counts and sums of People by department are answered from it.
CREATE MATERIALIZED VIEW IF NOT EXISTS PeopleByDepartment PRIMARY KEY ((Department))
  AS SELECT Department, COUNT(*) AS Employees, SUM(Age) AS TotalAge FROM People GROUP BY Department;

-- Index entities: the employees of a last name, each entry holding the first name too (a
-- covering global index: a verified entry answers without reading its row).
CREATE INDEX IF NOT EXISTS PeopleByLastName ON People (LastName) INCLUDE (FirstName);

-- The intra-partition secondary index: an employee by email within a department, its entries in
-- the department's own partition, written in the same transaction as the row, with copies of the
-- names (INCLUDE: a covering index) so that the lookup reads the entry alone.
CREATE INDEX IF NOT EXISTS PeopleByEmailInDepartment ON People (Email) INCLUDE (FirstName, LastName) LOCAL;
