"""psycopg2 (and pandas, where installed) against tablesql's server, as a notebook uses them
(PgClientsTest runs it): parameters, a transaction, an error's code, the catalog's listing of
the table and its columns, and an export by COPY. Connection settings come
from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE; the table's name is the argument."""
import io
import sys

import psycopg2

table = sys.argv[1]
connection = psycopg2.connect("")
seen = []
with connection.cursor() as cursor:  # psycopg2 opens a transaction: committed below
    cursor.execute(f"INSERT INTO {table} (PartitionKey, RowKey, Name, N) VALUES (%s, %s, %s, %s)", ("p1", "1", "Ann", 10))
    cursor.execute(f"INSERT INTO {table} (PartitionKey, RowKey, Name, N) VALUES (%s, %s, %s, %s)", ("p2", "2", "Bob", 20))
connection.commit()
with connection.cursor() as cursor:
    cursor.execute(f"SELECT RowKey, Name, N FROM {table} WHERE N >= %s ORDER BY RowKey", (10,))
    seen.append(",".join(f"{r[0]}:{r[1]}:{r[2]}" for r in cursor.fetchall()))
    try:
        cursor.execute(f"SELECT Nope FROM {table}")
        seen.append("no error")
    except psycopg2.Error as error:
        seen.append(error.pgcode)
connection.rollback()
with connection.cursor() as cursor:
    cursor.execute(f"SELECT COUNT(*) FROM {table}")
    seen.append(str(cursor.fetchone()[0]))
    cursor.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                   "AND table_name = %s", (table,))
    seen.append(",".join(r[0] for r in cursor.fetchall()))
    cursor.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s AND column_name "
                   "IN ('Name', 'N') ORDER BY column_name", (table,))
    seen.append(",".join(r[0] for r in cursor.fetchall()))
    exported = io.StringIO()
    cursor.copy_expert(f"COPY (SELECT RowKey, Name FROM {table} ORDER BY RowKey) TO STDOUT WITH CSV", exported)
    seen.append(exported.getvalue().replace("\n", ";"))
connection.close()
print("|".join(seen))
