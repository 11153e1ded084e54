/**
 * The PostgreSQL-protocol server: {@code target/tablesql-server.jar}, left out of the driver jar.
 * {@link io.tablesql.server.PgServer} accepts connections (a thread per session over the JDK's
 * sockets), authenticates them (the account key or a SAS token as the password, or SCRAM-SHA-256
 * users of {@code --users}; {@code Scram}, {@code PgTls}) and runs one {@code PgSession} per
 * client, each over one driver connection: simple and extended query ({@code PgExtendedQuery}),
 * COPY ({@code CopyCommand}, {@code PgCopy}), values in text and binary ({@code PgTypes},
 * {@code PgBinary}), errors as PostgreSQL's SQLSTATEs ({@code PgErrors}), session settings
 * ({@code PgSettings}). A client of the public JDBC API only; design in
 * {@code docs/architecture/server.md}.
 */
package io.tablesql.server;
