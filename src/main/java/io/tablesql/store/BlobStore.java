package io.tablesql.store;

import com.azure.core.http.HttpClient;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.tablesql.errors.SqlStates;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The only code that talks to the Azure Storage Blob SDK: the values longer than an entity holds
 * (docs/architecture/large-values.md, "Large values and wide rows", tier 3), each a block blob of the container
 * {@value #CONTAINER}, written once and never changed. Made on first use, so that a connection
 * whose tables hold no such value never needs Blob access.
 */
public final class BlobStore {
  /** The container holding every table's long values, named by table inside it. */
  public static final String CONTAINER = "tablesql-values";

  private final String endpoint;
  private final String accountName;
  private final com.azure.storage.blob.BlobServiceClient service;
  private final BlobContainerClient container;
  private volatile boolean containerExists;

  /** A blob and when it was last written, with the metadata it was written with. */
  public record StoredBlob(String name, OffsetDateTime lastModified, Map<String, String> metadata) {
  }

  BlobStore(ConnectionSettings settings, HttpClient http, AccountMetrics metrics) {
    this.endpoint = settings.blobEndpoint();
    this.accountName = settings.accountName();
    if (endpoint == null) {
      throw new StoreException("This value is longer than an entity holds (1 MiB), so it is kept in the account's Blob "
          + "storage, but the connection string names no Blob endpoint and none follows from its TableEndpoint. "
          + "Add BlobEndpoint=https://<account>.blob.core.windows.net to it.", SqlStates.CONNECTION_REJECTED, null);
    }
    int timeout = settings.getInt(DriverProperty.REQUEST_TIMEOUT);
    BlobServiceClientBuilder builder = new BlobServiceClientBuilder()
        .endpoint(endpoint)
        .httpClient(http)
        .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, settings.getInt(DriverProperty.MAX_RETRIES)
            + 1, Math.max(timeout, 60), 200L, 4_000L, null))
        .addPolicy(new RequestCountingPolicy(metrics));
    if (settings.accountKey() != null) {
      builder.credential(new StorageSharedKeyCredential(settings.accountName(), settings.accountKey().reveal()));
    } else {
      builder.sasToken(settings.sharedAccessSignature().reveal());
    }
    this.service = builder.buildClient();
    this.container = service.getBlobContainerClient(CONTAINER);
  }

  /** Writes a new blob; {@code name} must not exist (a value is never changed in place). */
  public void upload(String name, byte[] content, Map<String, String> metadata, RequestCounters counters) {
    ensureContainer(counters);
    try {
      container.getBlobClient(name).uploadWithResponse(new BlobParallelUploadOptions(BinaryData.fromBytes(content))
          .setMetadata(metadata).setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
          null, context(counters));
    } catch (RuntimeException e) {
      throw translate(e, "write a long value to blob " + name);
    }
  }

  /** Bytes a streamed read asks for at a time, and a streamed write sends as one block. */
  public static final int STREAM_BLOCK = 4 << 20;

  /**
   * Writes a new blob from a stream, block by block, holding one block at a time; {@code name}
   * must not exist. Tells how many bytes it wrote.
   */
  public long upload(String name, java.io.InputStream content, Map<String, String> metadata,
      RequestCounters counters) throws java.io.IOException {
    ensureContainer(counters);
    com.azure.storage.blob.specialized.BlockBlobClient blob = container.getBlobClient(name).getBlockBlobClient();
    List<String> blocks = new ArrayList<>();
    long written = 0;
    byte[] block = new byte[STREAM_BLOCK];
    try {
      for (int filled; (filled = content.readNBytes(block, 0, block.length)) > 0; ) {
        String id = java.util.Base64.getEncoder().encodeToString(String.format("%08d", blocks.size())
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        blob.stageBlockWithResponse(id, new java.io.ByteArrayInputStream(block, 0, filled), filled, null, null, null,
            context(counters));
        blocks.add(id);
        written += filled;
      }
      blob.commitBlockListWithResponse(new com.azure.storage.blob.options.BlockBlobCommitBlockListOptions(blocks)
          .setMetadata(metadata).setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")), null,
          context(counters));
    } catch (RuntimeException e) {
      throw translate(e, "write a long value to blob " + name);
    }
    return written;
  }

  /**
   * A blob's content as a stream that reads it a block at a time, or empty if it is gone. Its
   * reads fail with an IOException when the service does.
   */
  public Optional<java.io.InputStream> open(String name, RequestCounters counters) {
    return open(container.getBlobClient(name), "read the long value in blob " + name, counters);
  }

  private Optional<java.io.InputStream> open(BlobClient blob, String action, RequestCounters counters) {
    try {
      return Optional.of(blob.openInputStream(
          new com.azure.storage.blob.options.BlobInputStreamOptions().setBlockSize(STREAM_BLOCK), context(counters)));
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return Optional.empty();
      }
      throw translate(e, action);
    } catch (RuntimeException e) {
      throw translate(e, action);
    }
  }

  /** A blob's content, or empty if it is gone (deleted after its row stopped naming it). */
  public Optional<byte[]> download(String name, RequestCounters counters) {
    return download(container.getBlobClient(name), "read the long value in blob " + name, counters);
  }

  private Optional<byte[]> download(BlobClient blob, String action, RequestCounters counters) {
    try {
      return Optional.of(blob.downloadContentWithResponse(null, null, null, context(counters)).getValue().toBytes());
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return Optional.empty();
      }
      throw translate(e, action);
    } catch (RuntimeException e) {
      throw translate(e, action);
    }
  }

  /**
   * The content of an application's blob, named as its entity names it: {@code container/blob} or
   * the blob's URL in this account; empty if there is no such blob.
   */
  public Optional<byte[]> downloadNamed(String name, RequestCounters counters) {
    return download(named(name), "read blob " + name, counters);
  }

  /** An application's blob, named as {@link #downloadNamed}, as a stream read a block at a time; empty if there is none. */
  public Optional<java.io.InputStream> openNamed(String name, RequestCounters counters) {
    return open(named(name), "read blob " + name, counters);
  }

  /** The length in bytes of an application's blob, named as {@link #downloadNamed}; empty if there is none. */
  public Optional<Long> lengthOfNamed(String name, RequestCounters counters) {
    try {
      return Optional.of(named(name).getPropertiesWithResponse(null, null, context(counters)).getValue()
          .getBlobSize());
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return Optional.empty();
      }
      throw translate(e, "read the length of blob " + name);
    } catch (RuntimeException e) {
      throw translate(e, "read the length of blob " + name);
    }
  }

  /** The blob an application's entity names: {@code container/blob} or the blob's URL in this account. */
  private BlobClient named(String name) {
    String container;
    String blob;
    if (name.startsWith("http://") || name.startsWith("https://")) {
      com.azure.storage.blob.BlobUrlParts parts;
      try {
        parts = com.azure.storage.blob.BlobUrlParts.parse(name);
      } catch (RuntimeException e) {
        throw new StoreException("'" + name + "' is no blob's URL: a column that REFERENCES BLOB holds "
            + "container/blob or the blob's URL.", SqlStates.DATA_EXCEPTION, null);
      }
      if (accountName != null && parts.getAccountName() != null && !parts.getAccountName().equals(accountName)) {
        throw new StoreException("'" + name + "' names a blob of account " + parts.getAccountName() + ", not of "
            + accountName + ", whose Blob storage this connection reads.", SqlStates.DATA_EXCEPTION, null);
      }
      container = parts.getBlobContainerName();
      blob = parts.getBlobName();
    } else {
      int slash = name.indexOf('/');
      container = slash > 0 ? name.substring(0, slash) : null;
      blob = slash > 0 ? name.substring(slash + 1) : null;
    }
    if (container == null || blob == null || blob.isEmpty()) {
      throw new StoreException("'" + name + "' names no blob: a column that REFERENCES BLOB holds container/blob "
          + "or the blob's URL.", SqlStates.DATA_EXCEPTION, null);
    }
    return service.getBlobContainerClient(container).getBlobClient(blob);
  }

  /** Deletes a blob if it is there. */
  public void delete(String name, RequestCounters counters) {
    try {
      container.getBlobClient(name).deleteIfExistsWithResponse(null, null, null, context(counters));
    } catch (RuntimeException e) {
      throw translate(e, "delete blob " + name);
    }
  }

  /** The blobs whose names start with {@code prefix}, with their metadata; none if the container does not exist. */
  public List<StoredBlob> list(String prefix, RequestCounters counters) {
    List<StoredBlob> blobs = new ArrayList<>();
    try {
      for (BlobItem item : container.listBlobs(new ListBlobsOptions().setPrefix(prefix)
          .setDetails(new BlobListDetails().setRetrieveMetadata(true)), null, null)) {
        blobs.add(new StoredBlob(item.getName(), item.getProperties().getLastModified(),
            item.getMetadata() == null ? Map.of() : item.getMetadata()));
      }
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return List.of();
      }
      throw translate(e, "list the blobs of " + prefix);
    } catch (RuntimeException e) {
      throw translate(e, "list the blobs of " + prefix);
    }
    return blobs;
  }

  private void ensureContainer(RequestCounters counters) {
    if (containerExists) {
      return;
    }
    try {
      container.createIfNotExistsWithResponse(null, null, context(counters));
      containerExists = true;
    } catch (RuntimeException e) {
      throw translate(e, "create container " + CONTAINER);
    }
  }

  private static Context context(RequestCounters counters) {
    return new Context(RequestCountingPolicy.COUNTERS_KEY, counters);
  }

  /** Words a Blob service failure for the user: above all, a credential without Blob access. */
  private StoreException translate(RuntimeException e, String action) {
    if (e instanceof StoreException store) {
      return store;
    }
    if (e instanceof BlobStorageException blob) {
      int status = blob.getStatusCode();
      String code = blob.getErrorCode() == null ? "HTTP " + status : blob.getErrorCode().toString();
      if (status == 401 || status == 403) {
        return new StoreException("The credentials may not " + action + " in container " + CONTAINER + " at " + endpoint
            + " (" + code + "). Values longer than an entity holds (1 MiB) are kept in the account's Blob storage: "
            + "use the account key, or a SAS that grants the Blob service (ss=b) with read, add, create, write, delete "
            + "and list permissions on container and object resources (srt=co, sp=racwdl).",
            SqlStates.INSUFFICIENT_PRIVILEGE, null);
      }
      if (status == 429 || status == 500 || status == 502 || status == 503 || status == 504) {
        return new StoreException("The Blob service at " + endpoint + " failed to " + action + ": " + code
            + ", through every retry (maxRetries). Retry later.", SqlStates.SERVICE_BUSY, null);
      }
      return new StoreException("The Blob service at " + endpoint + " failed to " + action + ": " + code + ".",
          SqlStates.COMMUNICATION_FAILURE, null);
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException || cause instanceof UnknownHostException
          || cause instanceof HttpConnectTimeoutException) {
        return new StoreException("Cannot reach the Blob service at " + endpoint + " ("
            + cause.getClass().getSimpleName() + ") to " + action + ": values longer than an entity holds are kept "
            + "there. Check BlobEndpoint and that the service or emulator is running.",
            SqlStates.UNABLE_TO_CONNECT, null);
      }
    }
    return new StoreException("Failed to " + action + " at " + endpoint + ": " + e.getClass().getSimpleName() + ".",
        SqlStates.COMMUNICATION_FAILURE, null);
  }
}
