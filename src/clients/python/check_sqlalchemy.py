"""SQLAlchemy (over psycopg2) and pandas against tablesql's server, as a notebook uses them
(PgClientsTest runs it): the inspector's listing of tables and views, its reflection of a table's
columns, primary key and indexes (what Superset and Table(autoload_with=...) read), pandas.read_sql of a query, an export by COPY
with parameters, DataFrame.to_sql appending rows, and a nested transaction (a savepoint) rolled
back. Connection settings come from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE; the
table's name is the argument."""
import io
import os
import sys
import urllib.parse

import pandas
from sqlalchemy import MetaData, Table, create_engine, inspect, text

table = sys.argv[1]
engine = create_engine("postgresql+psycopg2://%s:%s@%s:%s/%s" % (
    urllib.parse.quote(os.environ["PGUSER"], safe=""), urllib.parse.quote(os.environ["PGPASSWORD"], safe=""),
    os.environ["PGHOST"], os.environ["PGPORT"], urllib.parse.quote(os.environ["PGDATABASE"], safe="")))
seen = []
with engine.begin() as connection:
    connection.execute(text(f"CREATE TABLE {table} (Dept VARCHAR, Id INT, Name VARCHAR, Salary DOUBLE, "
                            "PRIMARY KEY ((Dept), Id))"))
inspector = inspect(engine)
seen.append(str(table in inspector.get_table_names()))
with engine.begin() as connection:
    connection.execute(text(f"CREATE INDEX {table}Name ON {table} (Name)"))
seen.append(",".join(inspector.get_pk_constraint(table)["constrained_columns"]))
seen.append(";".join(f"{index['name']}:{','.join(index['column_names'])}:{index['unique']}"
                     for index in inspector.get_indexes(table)))
seen.append(",".join(f"{column['name']}:{column['type']}:{column['nullable']}" for column in inspector.get_columns(table)))
reflected = Table(table, MetaData(), autoload_with=engine)
seen.append(",".join(column.name for column in reflected.primary_key.columns))
pandas.DataFrame({"Dept": ["d1", "d1", "d2"], "Id": [1, 2, 3], "Name": ["Ann", "Bob", "Cy"],
                  "Salary": [10.5, 20.0, 30.25]}).to_sql(table, engine, if_exists="append", index=False)
with engine.connect() as connection:
    with connection.begin():
        connection.execute(text(f"INSERT INTO {table} (Dept, Id, Name) VALUES ('d3', 4, 'Di')"))
        nested = connection.begin_nested()
        connection.execute(text(f"INSERT INTO {table} (Dept, Id, Name) VALUES ('d3', 5, 'dropped')"))
        nested.rollback()
frame = pandas.read_sql(text(f"SELECT Id, Name, Salary FROM {table} WHERE Id >= :least ORDER BY Id"), engine,
                        params={"least": 2})
seen.append(",".join(f"{row.Id}:{row.Name}:{row.Salary}" for row in frame.itertuples()))
seen.append(str(frame["Salary"].dtype))
raw = engine.raw_connection()  # an export by COPY, through the engine's psycopg2 connection
try:
    exported = io.StringIO()
    raw.cursor().copy_expert(f"COPY (SELECT Dept, Id, Name FROM {table} WHERE Dept = 'd1' ORDER BY Id) TO STDOUT "
                             "WITH (FORMAT CSV)", exported)
    seen.append(exported.getvalue().strip().replace("\n", ";"))
finally:
    raw.close()
print("|".join(seen))
