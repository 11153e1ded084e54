package io.tablesql.testing;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablesql.shell.LocalEmulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The suite's storage account: one Azurite started on first use and stopped when the JVM exits,
 * plus the raw SDK to set up data (tests never read through it what they assert).
 */
public final class TestAccount {
  private static LocalEmulator emulator;
  private static TableServiceClient service;
  private static final AtomicInteger TABLE_NUMBER = new AtomicInteger();

  private TestAccount() {
  }

  public static synchronized LocalEmulator emulator() {
    if (emulator == null) {
      try {
        emulator = LocalEmulator.start(Path.of("").toAbsolutePath());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(emulator::close));
      service = new TableServiceClientBuilder().endpoint(emulator.tableEndpoint())
          .credential(new AzureNamedKeyCredential(LocalEmulator.ACCOUNT, LocalEmulator.KEY))
          .httpClient(new JdkHttpClientBuilder().build()).buildClient();
    }
    return emulator;
  }

  public static String url(String... properties) {
    return withProperties(new StringBuilder("jdbc:tablesql:").append(emulator().connectionString()), properties);
  }

  /**
   * {@code url} with the given driver properties, after those of the system property
   * {@code tablesql.test.driverProperties} (semicolon-separated), which runs the tests under
   * other settings, e.g. the fault tests over Netty ({@code -Dtablesql.test.driverProperties=httpClient=netty}).
   */
  public static String withProperties(StringBuilder url, String... properties) {
    String common = System.getProperty("tablesql.test.driverProperties", "");
    if (!common.isEmpty()) {
      url.append(';').append(common);
    }
    for (String property : properties) {
      url.append(';').append(property);
    }
    return url.toString();
  }

  public static Connection connect(String... properties) throws SQLException {
    return DriverManager.getConnection(url(properties));
  }

  public static TableServiceClient service() {
    emulator();
    return service;
  }

  /** The container where the driver keeps values longer than an entity, read through the Blob SDK. */
  public static com.azure.storage.blob.BlobContainerClient valueBlobs() {
    return blobContainer(io.tablesql.store.BlobStore.CONTAINER);
  }

  /** A container of the emulator's Blob service, through the Blob SDK, as an application writes blobs. */
  public static com.azure.storage.blob.BlobContainerClient blobContainer(String name) {
    return new com.azure.storage.blob.BlobServiceClientBuilder().endpoint(emulator().blobEndpoint())
        .credential(new com.azure.storage.common.StorageSharedKeyCredential(LocalEmulator.ACCOUNT, LocalEmulator.KEY))
        .httpClient(new JdkHttpClientBuilder().build()).buildClient().getBlobContainerClient(name);
  }

  /** The names of the value blobs of a table the driver keeps in Blob storage. */
  public static List<String> valueBlobsOf(String physicalTable) {
    com.azure.storage.blob.BlobContainerClient container = valueBlobs();
    if (!container.exists()) {
      return List.of();
    }
    return container.listBlobs(new com.azure.storage.blob.models.ListBlobsOptions()
        .setPrefix(physicalTable.toLowerCase(java.util.Locale.ROOT) + "/"), null).stream()
        .map(com.azure.storage.blob.models.BlobItem::getName).toList();
  }

  /** A new table with a name no other test uses. */
  public static TableClient newTable(String prefix) {
    return service().createTable(prefix + TABLE_NUMBER.incrementAndGet());
  }

  /** A new table holding {@code entities}, which give the driver its columns when it samples it. */
  public static TableClient newTable(String prefix, TableEntity... entities) {
    TableClient table = newTable(prefix);
    insert(table, List.of(entities));
    return table;
  }

  /**
   * A new table of {@code count} entities in three partitions ({@code p0}..{@code p2}, RowKeys
   * {@code r00}..), with a property of every Edm type; every fifth lacks Text and Int (NULL).
   */
  public static TableClient newTypedTable(String prefix, int count) {
    TableClient table = newTable(prefix);
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      TableEntity entity = new TableEntity("p" + (i % 3), String.format("r%02d", i))
          .addProperty("Text", "t" + i).addProperty("Int", i).addProperty("Long", 10_000_000_000L + i)
          .addProperty("Double", i / 4.0).addProperty("Flag", i % 2 == 0)
          .addProperty("When", OffsetDateTime.of(2026, 1, 1 + i % 28, 10, i, 0, 0, ZoneOffset.UTC))
          .addProperty("Bytes", new byte[] {(byte) i, 1, 2})
          .addProperty("Id", new UUID(0, i));
      if (i % 5 == 0) {
        entity.getProperties().remove("Text"); // absent: NULL
        entity.getProperties().remove("Int");
      }
      entities.add(entity);
    }
    insert(table, entities);
    return table;
  }

  /** Writes entities with entity group transactions of up to 100 per partition. */
  public static void insert(TableClient table, List<TableEntity> entities) {
    Map<String, List<TableTransactionAction>> byPartition = new LinkedHashMap<>();
    for (TableEntity entity : entities) {
      byPartition.computeIfAbsent(entity.getPartitionKey(), k -> new ArrayList<>())
          .add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, entity));
    }
    for (List<TableTransactionAction> actions : byPartition.values()) {
      for (int i = 0; i < actions.size(); i += 100) {
        table.submitTransaction(actions.subList(i, Math.min(actions.size(), i + 100)));
      }
    }
  }
}
