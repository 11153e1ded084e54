"""psycopg 3 against tablesql's server (PgClientsTest runs it): a declared table made by DDL,
parameters (sent bound, in the extended protocol), statements it prepares on the server after
repeated use and deallocates at rollback, binary results, an error's code, a transaction, and
an export and a load by COPY, and the catalog's listing of the table and its columns. Connection settings come from PGHOST, PGPORT, PGUSER, PGPASSWORD
and PGDATABASE; the table's name is the argument."""
import sys
from decimal import Decimal

import psycopg

table = sys.argv[1]
seen = []
with psycopg.connect("", autocommit=True) as connection:
    connection.execute(f"CREATE TABLE {table} (Dept VARCHAR, Id INT, Name VARCHAR, Salary DECIMAL(10, 2), "
                       "Hired DATE, PRIMARY KEY ((Dept), Id))")
with psycopg.connect("") as connection:
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} (Dept, Id, Name, Salary) VALUES (%s, %s, %s, %s)",
                           [("d1", 1, "Ann", Decimal("100.50")), ("d2", 2, "Bob", Decimal("200"))])
    connection.commit()
    with connection.cursor() as cursor:
        for i in range(8):  # prepared on the server after the fifth run
            cursor.execute(f"SELECT Name FROM {table} WHERE Id = %s", (1 + i % 2,))
        seen.append(cursor.fetchone()[0])
        try:
            cursor.execute(f"SELECT Nope FROM {table}")
            seen.append("no error")
        except psycopg.Error as error:
            seen.append(error.sqlstate)
    connection.rollback()  # DEALLOCATE ALL: the failed transaction may have left prepared statements
    with connection.cursor(binary=True) as cursor:
        cursor.execute(f"SELECT Id, Name, Salary FROM {table} WHERE Salary > %s ORDER BY Id", (Decimal("50"),))
        seen.append(",".join(f"{r[0]}:{r[1]}:{r[2]}" for r in cursor.fetchall()))
    with connection.transaction():
        connection.execute(f"UPDATE {table} SET Name = %s WHERE Dept = %s AND Id = %s", ("Anne", "d1", 1))
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {table} (Dept, Id, Name) FROM STDIN") as copy:
            copy.write_row(("d3", 3, "Cy"))
        connection.commit()
        with cursor.copy(f"COPY (SELECT Id, Name FROM {table} ORDER BY Id) TO STDOUT WITH (FORMAT CSV)") as copy:
            seen.append(b"".join(bytes(block) for block in copy).decode().replace("\n", ";"))
        cursor.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                       "AND table_name = %s", (table,))
        seen.append(",".join(row[0] for row in cursor.fetchall()))
        cursor.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s ORDER BY column_name",
                       (table,))
        seen.append(",".join(row[0] for row in cursor.fetchall()))
print("|".join(seen))
