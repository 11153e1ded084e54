package io.tablesql.settings;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.net.URI;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * A parsed {@code jdbc:tablesql:} URL: the Azure Storage connection string plus driver
 * properties, both written as {@code key=value;} pairs (or given as {@link Properties}).
 * Keys are case-insensitive. Secrets are held but never printed.
 */
public final class ConnectionSettings {
  public static final String URL_PREFIX = "jdbc:tablesql:";

  /** Azurite's well-known development account (public, documented by Microsoft). */
  static final String DEV_ACCOUNT = "devstoreaccount1";
  static final String DEV_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /** Connection-string keys of Azure Storage that tablesql understands. */
  private static final List<String> STORAGE_KEYS = List.of(
      "DefaultEndpointsProtocol", "AccountName", "AccountKey", "EndpointSuffix", "TableEndpoint",
      "BlobEndpoint", "SharedAccessSignature", "UseDevelopmentStorage", "DevelopmentStorageProxyUri");
  /** Keys of other storage services, accepted so a connection string can be pasted whole. */
  private static final List<String> IGNORED_KEYS = List.of("QueueEndpoint", "FileEndpoint");

  private final String tableEndpoint;
  /** Where values longer than an entity holds are kept, or null when no rule gives it (BlobEndpoint=... names it). */
  private final String blobEndpoint;
  private final String accountName;
  private final Secret accountKey;
  private final Secret sharedAccessSignature;
  private final Map<DriverProperty, String> properties;
  private final boolean resultsInKeyOrder;

  private ConnectionSettings(String tableEndpoint, String blobEndpoint, String accountName, Secret accountKey,
      Secret sharedAccessSignature, Map<DriverProperty, String> properties) {
    this.tableEndpoint = tableEndpoint;
    this.blobEndpoint = blobEndpoint;
    this.accountName = accountName;
    this.accountKey = accountKey;
    this.sharedAccessSignature = sharedAccessSignature;
    this.properties = properties;
    this.resultsInKeyOrder = switch (choice(DriverProperty.KEY_ORDER, Choices.KeyOrder.class)) {
      case SORTED -> true;
      case UNSORTED -> false;
      case AUTO -> !CosmosEndpoint.recognises(tableEndpoint, accountName);
    };
  }

  public static boolean acceptsUrl(String url) {
    return url != null && url.regionMatches(true, 0, URL_PREFIX, 0, URL_PREFIX.length());
  }

  /** Parses a URL and properties; properties given both ways take the URL's value. */
  public static ConnectionSettings parse(String url, Properties info) throws SQLException {
    Map<String, String> storage = new LinkedHashMap<>();
    Map<DriverProperty, String> driver = new EnumMap<>(DriverProperty.class);
    String password = null;
    if (info != null) {
      for (String name : info.stringPropertyNames()) {
        if (name.equalsIgnoreCase("password")) {
          password = info.getProperty(name);
        } else if (!name.equalsIgnoreCase("user")) {
          put(name, info.getProperty(name), storage, driver);
        }
      }
    }
    String body = url.substring(URL_PREFIX.length());
    for (String pair : body.split(";")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw SqlExceptions.of("Malformed connection string: " + redact(pair)
            + " is not a key=value pair. Write it as key=value; for example "
            + "jdbc:tablesql:UseDevelopmentStorage=true", SqlStates.CONNECTION_REJECTED);
      }
      put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim(), storage, driver);
    }
    for (Map.Entry<DriverProperty, String> entry : driver.entrySet()) {
      validate(entry.getKey(), entry.getValue());
    }
    checkLease(driver);
    if (password != null && !password.isEmpty() && !storage.containsKey("AccountKey")
        && !storage.containsKey("SharedAccessSignature")) {
      putPassword(password, storage);
    }
    return fromStorageKeys(storage, driver);
  }

  /**
   * A tool's password field may carry the credential, so it never sits in a URL: an account
   * key, a SAS token, or either written as {@code AccountKey=...} / {@code SharedAccessSignature=...}.
   */
  private static void putPassword(String password, Map<String, String> storage) {
    int eq = password.indexOf('=');
    String name = eq > 0 ? password.substring(0, eq).trim() : "";
    if (name.equalsIgnoreCase("AccountKey") || name.equalsIgnoreCase("SharedAccessSignature")) {
      storage.put(name.equalsIgnoreCase("AccountKey") ? "AccountKey" : "SharedAccessSignature",
          password.substring(eq + 1).trim());
    } else if (password.startsWith("?") || password.startsWith("sv=") || password.contains("&sig=")) {
      storage.put("SharedAccessSignature", password);
    } else {
      storage.put("AccountKey", password);
    }
  }

  private static void put(String key, String value, Map<String, String> storage,
      Map<DriverProperty, String> driver) throws SQLException {
    for (String known : STORAGE_KEYS) {
      if (known.equalsIgnoreCase(key)) {
        storage.put(known, value);
        return;
      }
    }
    for (String ignored : IGNORED_KEYS) {
      if (ignored.equalsIgnoreCase(key)) {
        return;
      }
    }
    DriverProperty property = DriverProperty.byKey(key);
    if (property == null) {
      List<String> valid = new ArrayList<>(STORAGE_KEYS);
      for (DriverProperty p : DriverProperty.values()) {
        valid.add(p.key());
      }
      throw SqlExceptions.of("Unknown connection string key " + shown(key) + ". Valid keys are: "
          + String.join(", ", valid) + ".", SqlStates.CONNECTION_REJECTED);
    }
    driver.put(property, value);
  }

  private static void validate(DriverProperty property, String value) throws SQLException {
    if (!property.kind().accepts(value)) {
      throw badValue(property, value, property.kind().expected());
    }
  }

  /**
   * An intent's committer stops sending once an answer could arrive after its lease ran out, so
   * the lease must hold at least two requests' time (docs/architecture/intents.md, "Leases"): unset, it is
   * the default or twice requestTimeoutSeconds, whichever is longer; set shorter, it is refused.
   */
  private static void checkLease(Map<DriverProperty, String> driver) throws SQLException {
    long timeout = Long.parseLong(driver.getOrDefault(DriverProperty.REQUEST_TIMEOUT,
        DriverProperty.REQUEST_TIMEOUT.defaultValue()));
    String given = driver.get(DriverProperty.INTENT_LEASE);
    if (given == null) {
      long lease = Math.max(Long.parseLong(DriverProperty.INTENT_LEASE.defaultValue()), 2 * timeout);
      driver.put(DriverProperty.INTENT_LEASE, String.valueOf(Math.min(lease, Integer.MAX_VALUE)));
      return;
    }
    long lease = Long.parseLong(given);
    if (lease < 2 * timeout) {
      throw SqlExceptions.of("Driver property intentLeaseSeconds=" + lease + " is invalid: it must be at least twice "
          + "requestTimeoutSeconds (" + timeout + "), so that a write's answer arrives before recovery may take its "
          + "intent. Raise intentLeaseSeconds to " + 2 * timeout + " or more.", SqlStates.CONNECTION_REJECTED);
    }
  }

  private static SQLException badValue(DriverProperty property, String value, String expected) {
    return SqlExceptions.of("Driver property " + property.key() + "='" + value + "' is invalid: expected "
        + expected + " (default " + property.defaultValue() + ").", SqlStates.CONNECTION_REJECTED);
  }

  private static ConnectionSettings fromStorageKeys(Map<String, String> keys,
      Map<DriverProperty, String> driver) throws SQLException {
    String endpoint = keys.get("TableEndpoint");
    String blobEndpoint = keys.get("BlobEndpoint");
    String accountName = keys.get("AccountName");
    Secret key = Secret.ofNullable(keys.get("AccountKey"));
    Secret sas = Secret.ofNullable(keys.get("SharedAccessSignature"));
    if ("true".equalsIgnoreCase(keys.get("UseDevelopmentStorage"))) {
      String proxy = keys.getOrDefault("DevelopmentStorageProxyUri", "http://127.0.0.1");
      URI uri = URI.create(proxy);
      int port = uri.getPort() > 0 ? uri.getPort() : 10002;
      endpoint = uri.getScheme() + "://" + uri.getHost() + ":" + port + "/" + DEV_ACCOUNT;
      if (blobEndpoint == null) {
        blobEndpoint = uri.getScheme() + "://" + uri.getHost() + ":" + (port - 2) + "/" + DEV_ACCOUNT;
      }
      accountName = DEV_ACCOUNT;
      key = new Secret(DEV_KEY);
    } else if (endpoint == null) {
      if (accountName == null) {
        throw SqlExceptions.of("The connection string names no account: add AccountName=... (with "
            + "AccountKey=... or SharedAccessSignature=...), TableEndpoint=..., or "
            + "UseDevelopmentStorage=true for a local emulator.", SqlStates.CONNECTION_REJECTED);
      }
      String protocol = keys.getOrDefault("DefaultEndpointsProtocol", "https");
      String suffix = keys.getOrDefault("EndpointSuffix", "core.windows.net");
      endpoint = protocol + "://" + accountName + ".table." + suffix;
    }
    try {
      URI uri = new URI(endpoint);
      if (uri.getScheme() == null || uri.getHost() == null) {
        throw new IllegalArgumentException();
      }
    } catch (Exception e) {
      throw SqlExceptions.of("TableEndpoint '" + endpoint + "' is not a URL such as "
          + "https://myaccount.table.core.windows.net.", SqlStates.CONNECTION_REJECTED);
    }
    if (key == null && sas == null) {
      throw SqlExceptions.of("The connection string has no credentials: add AccountKey=... (with "
          + "AccountName) or SharedAccessSignature=....", SqlStates.CONNECTION_REJECTED);
    }
    if (key != null && !isBase64(key.reveal())) {
      // the service would refuse every request; the key itself is never named
      throw SqlExceptions.of("The account key (AccountKey, or the password) is not a valid account key: an account key "
          + "is base64 text, as the storage account's Access keys page shows it (88 characters). Copy it again, or "
          + "give a SAS token as SharedAccessSignature=....", SqlStates.INVALID_AUTHORIZATION);
    }
    if (accountName == null) { // the schema is named after the account, whatever the credential
      accountName = accountNameFromEndpoint(endpoint);
    }
    if (blobEndpoint == null) {
      blobEndpoint = blobEndpointBeside(endpoint, accountName);
    }
    return new ConnectionSettings(stripTrailingSlash(endpoint),
        blobEndpoint == null ? null : stripTrailingSlash(blobEndpoint), accountName, key, sas, driver);
  }

  /**
   * The account's Blob endpoint as its Table endpoint implies it: {@code <account>.blob.<suffix>}
   * beside {@code <account>.table.<suffix>}, or the emulator's port 10000 beside its 10002; null
   * for any other endpoint (the Cosmos DB Table API has no Blob storage).
   */
  private static String blobEndpointBeside(String tableEndpoint, String accountName) {
    URI uri = URI.create(tableEndpoint);
    String host = uri.getHost();
    if (CosmosEndpoint.recognises(tableEndpoint, accountName)) {
      return null;
    }
    if (host.contains(".table.")) {
      return uri.getScheme() + "://" + host.replaceFirst("\\.table\\.", ".blob.")
          + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
    }
    if (uri.getPort() == 10002) {
      return tableEndpoint.replaceFirst(":10002", ":10000");
    }
    return null;
  }

  private static boolean isBase64(String text) {
    try {
      return !text.isEmpty() && java.util.Base64.getDecoder().decode(text).length > 0;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The account is the first host label on Azure, the first path segment on emulators. */
  private static String accountNameFromEndpoint(String endpoint) {
    URI uri = URI.create(endpoint);
    String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+", "");
    if (!path.isEmpty()) {
      return path.split("/")[0];
    }
    return uri.getHost().split("\\.")[0];
  }

  private static String stripTrailingSlash(String endpoint) {
    return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
  }

  /** A value that may hold a secret, cut to its key so nothing secret is echoed. */
  private static String redact(String pair) {
    int eq = pair.indexOf('=');
    return eq < 0 ? shown(pair) : shown(pair.substring(0, eq)) + "=...";
  }

  /**
   * A key as messages show it: quoted if it reads as a key name, otherwise left out, since text
   * that is no name (an account key pasted without {@code AccountKey=}) may be a credential.
   */
  private static String shown(String key) {
    return key.matches("[A-Za-z][A-Za-z0-9_.-]{0,39}") ? "'" + key + "'" : "(not shown: it may be a credential)";
  }

  public String tableEndpoint() {
    return tableEndpoint;
  }

  public String accountName() {
    return accountName;
  }

  /** The account's Blob endpoint, given or implied by the Table endpoint; null when neither gives one. */
  public String blobEndpoint() {
    return blobEndpoint;
  }

  /** The SQL schema holding the account's tables: named after the account, or {@code azure}. */
  public String schemaName() {
    return accountName == null ? "azure" : accountName;
  }

  public Secret accountKey() {
    return accountKey;
  }

  public Secret sharedAccessSignature() {
    return sharedAccessSignature;
  }

  /** The property's value; one of a choice's words as declared, whatever case it was written in. */
  public String get(DriverProperty property) {
    String value = properties.getOrDefault(property, property.defaultValue());
    for (String word : property.choices()) {
      if (word.equalsIgnoreCase(value.trim())) {
        return word;
      }
    }
    return value;
  }

  /** The value of a property that takes one of a few words, as the constant of its enum ({@link Choices}). */
  public <E extends Enum<E>> E choice(DriverProperty property, Class<E> values) {
    return Enum.valueOf(values, get(property).trim().toUpperCase(Locale.ROOT));
  }

  public int getInt(DriverProperty property) {
    return Integer.parseInt(get(property));
  }

  /** The value of a property that takes a whole number or {@code auto}: empty for {@code auto}. */
  public java.util.OptionalInt wholeOrAuto(DriverProperty property) {
    String value = get(property).trim();
    return value.equalsIgnoreCase("auto") ? java.util.OptionalInt.empty()
        : java.util.OptionalInt.of(Integer.parseInt(value));
  }

  public boolean getBoolean(DriverProperty property) {
    return Boolean.parseBoolean(get(property).toLowerCase(Locale.ROOT));
  }

  /**
   * Whether the service returns query results sorted by (PartitionKey, RowKey), so the planner
   * may rely on it: as keyOrder says, or, for auto, unless the endpoint is the Cosmos DB Table API.
   */
  public boolean resultsInKeyOrder() {
    return resultsInKeyOrder;
  }

  /**
   * Who is asking, for keys of caches shared across connections: the endpoint, the account and
   * the credential. Two connections with different keys or SAS tokens never share cached data,
   * since one may see what the other may not; the credential enters only as a salted digest.
   */
  public String principal() {
    return tableEndpoint + "|" + accountName + "|" + CredentialDigest.of(
        accountKey != null ? "AccountKey" : "SharedAccessSignature",
        (accountKey != null ? accountKey : sharedAccessSignature).reveal());
  }

  /** The principal and the settings that shape inferred metadata, for the schema cache. */
  public String cacheKey() {
    return principal() + "|" + get(DriverProperty.SAMPLE_SIZE);
  }

  /**
   * Tables the connection knows without listing the account's tables: those of the
   * {@code tables} property and the one a service SAS is scoped to ({@code tn=}). A SAS scoped
   * to a table usually may not list tables.
   */
  public java.util.Set<String> declaredTables() {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    for (String name : get(DriverProperty.TABLES).split(",")) {
      if (!name.isBlank()) {
        names.add(name.trim());
      }
    }
    if (sharedAccessSignature != null) {
      for (String parameter : sharedAccessSignature.reveal().replaceFirst("^\\?", "").split("&")) {
        if (parameter.regionMatches(true, 0, "tn=", 0, 3) && parameter.length() > 3) {
          names.add(java.net.URLDecoder.decode(parameter.substring(3), java.nio.charset.StandardCharsets.UTF_8));
        }
      }
    }
    return names;
  }

  /** The lookup tables named by the lookupTables property, in lower case. */
  public java.util.Set<String> lookupTables() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (String name : get(DriverProperty.LOOKUP_TABLES).split(",")) {
      if (!name.isBlank()) {
        names.add(name.trim().toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConnectionSettings other && tableEndpoint.equals(other.tableEndpoint)
        && Objects.equals(blobEndpoint, other.blobEndpoint)
        && Objects.equals(accountName, other.accountName) && Objects.equals(accountKey, other.accountKey)
        && Objects.equals(sharedAccessSignature, other.sharedAccessSignature)
        && properties.equals(other.properties);
  }

  @Override
  public int hashCode() {
    return Objects.hash(tableEndpoint, accountName, properties);
  }

  @Override
  public String toString() {
    return "ConnectionSettings{endpoint=" + tableEndpoint + ", account=" + accountName
        + ", credentials=" + (accountKey != null ? "AccountKey=***" : "SharedAccessSignature=***")
        + ", properties=" + properties + "}";
  }

  /** A credential: compared by value, never printed. */
  public static final class Secret {
    private final String value;

    Secret(String value) {
      this.value = value;
    }

    static Secret ofNullable(String value) {
      return value == null || value.isEmpty() ? null : new Secret(value);
    }

    public String reveal() {
      return value;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Secret other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
      return value.hashCode();
    }

    @Override
    public String toString() {
      return "***";
    }
  }
}
