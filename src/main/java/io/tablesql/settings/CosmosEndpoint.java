package io.tablesql.settings;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Recognises the Azure Cosmos DB Table API, which speaks the Table protocol but returns query
 * results in no particular key order (its FAQ says so): accounts at
 * {@code *.table.cosmos.azure.com} (and the older {@code *.table.cosmosdb.azure.com}), and the
 * Cosmos DB emulator as its documentation connects to it (account {@code localhost}, port 8902).
 */
final class CosmosEndpoint {
  private static final List<String> HOST_SUFFIXES = List.of(".table.cosmos.azure.com", ".table.cosmosdb.azure.com");
  private static final String EMULATOR_ACCOUNT = "localhost";
  private static final int EMULATOR_TABLE_PORT = 8902;

  private CosmosEndpoint() {
  }

  static boolean recognises(String tableEndpoint, String accountName) {
    URI uri = URI.create(tableEndpoint);
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    if (HOST_SUFFIXES.stream().anyMatch(host::endsWith)) {
      return true;
    }
    return uri.getPort() == EMULATOR_TABLE_PORT && EMULATOR_ACCOUNT.equalsIgnoreCase(accountName);
  }
}
