package io.tablesql.shell;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablesql.settings.ConnectionSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Loads {@code sql-examples/dataset.json} into an account. The format: {@code {"tables": {name:
 * [entity, ...]}}}; JSON strings, booleans, whole numbers and decimals are String, Boolean, Int32
 * and Double; other types are written as {@code {"Int64": "…"}}, {@code {"Double": 2.0}},
 * {@code {"DateTime": "…Z"}}, {@code {"Guid": "…"}} or {@code {"Binary": "base64"}}.
 */
public final class SampleData {
  private SampleData() {
  }

  /** Loads the dataset into the emulator; returns the names of the tables loaded. */
  public static List<String> load(Path dataset, String tableEndpoint, String account, String key) throws IOException {
    TableServiceClient service = new TableServiceClientBuilder().endpoint(tableEndpoint)
        .credential(new AzureNamedKeyCredential(account, key))
        .httpClient(new JdkHttpClientBuilder().build()).buildClient();
    JsonNode tables = new ObjectMapper().readTree(dataset.toFile()).get("tables");
    List<String> loaded = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = tables.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> table = it.next();
      TableClient client = service.createTableIfNotExists(table.getKey());
      if (client == null) {
        client = service.getTableClient(table.getKey());
      }
      Map<String, List<TableTransactionAction>> byPartition = new LinkedHashMap<>();
      for (JsonNode node : table.getValue()) {
        TableEntity entity = entity(node);
        byPartition.computeIfAbsent(entity.getPartitionKey(), p -> new ArrayList<>())
            .add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, entity));
      }
      for (List<TableTransactionAction> actions : byPartition.values()) {
        for (int i = 0; i < actions.size(); i += 100) {
          client.submitTransaction(actions.subList(i, Math.min(actions.size(), i + 100)));
        }
      }
      loaded.add(table.getKey());
    }
    return loaded;
  }

  /**
   * Runs a script of SQL statements (each ending with ';' at the end of a line, comment lines
   * starting with '--') through the driver: the tables the examples declare over the dataset.
   */
  public static void declare(Path script, String connectionString) throws IOException, SQLException {
    try (Connection connection = DriverManager.getConnection(ConnectionSettings.URL_PREFIX + connectionString);
         Statement statement = connection.createStatement()) {
      StringBuilder sql = new StringBuilder();
      for (String line : Files.readAllLines(script, StandardCharsets.UTF_8)) {
        if (line.trim().startsWith("--")) {
          continue;
        }
        sql.append(line).append('\n');
        if (line.trim().endsWith(";")) {
          String text = sql.toString().trim();
          statement.execute(text.substring(0, text.length() - 1));
          sql.setLength(0);
        }
      }
    }
  }

  private static TableEntity entity(JsonNode node) {
    TableEntity entity = new TableEntity(node.get("PartitionKey").asText(), node.get("RowKey").asText());
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> property = it.next();
      if (!property.getKey().equals("PartitionKey") && !property.getKey().equals("RowKey")) {
        entity.addProperty(property.getKey(), value(property.getKey(), property.getValue()));
      }
    }
    return entity;
  }

  private static Object value(String name, JsonNode value) {
    if (value.isTextual()) {
      return value.asText();
    } else if (value.isBoolean()) {
      return value.asBoolean();
    } else if (value.isIntegralNumber()) {
      return value.intValue();
    } else if (value.isNumber()) {
      return value.doubleValue();
    } else if (value.isObject() && value.size() == 1) {
      Map.Entry<String, JsonNode> typed = value.fields().next();
      String text = typed.getValue().asText();
      switch (typed.getKey()) {
        case "Int64": return Long.parseLong(text);
        case "Double": return typed.getValue().doubleValue();
        case "DateTime": return OffsetDateTime.parse(text);
        case "Guid": return UUID.fromString(text);
        case "Binary": return Base64.getDecoder().decode(text);
        default: break;
      }
    }
    throw new IllegalArgumentException("Property " + name + " has a value the dataset format does not know: " + value);
  }
}
