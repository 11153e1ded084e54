package io.tablesql.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The connection-string parser: every form the README lists, its errors, and no secret in any message. */
class ConnectionSettingsUnitTest {
  static final String KEY = "c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5c2VjcmV0a2V5cw==";
  static final String SAS = "sv=2019-02-02&tn=orders&sig=c2lnbmF0dXJlc2VjcmV0";

  static ConnectionSettings parse(String url) throws SQLException {
    return ConnectionSettings.parse(url, new Properties());
  }

  @Test
  void everyFormOfTheReadme() throws SQLException {
    ConnectionSettings dev = parse("jdbc:tablesql:UseDevelopmentStorage=true");
    assertEquals("http://127.0.0.1:10002/devstoreaccount1", dev.tableEndpoint());
    assertEquals("devstoreaccount1", dev.accountName());

    ConnectionSettings account = parse("jdbc:tablesql:DefaultEndpointsProtocol=https;AccountName=myaccount;AccountKey="
        + KEY + ";EndpointSuffix=core.windows.net;BlobEndpoint=https://x.blob.core.windows.net");
    assertEquals("https://myaccount.table.core.windows.net", account.tableEndpoint());
    assertEquals(KEY, account.accountKey().reveal());

    ConnectionSettings explicit = parse("jdbc:tablesql:TableEndpoint=http://127.0.0.1:10002/devstoreaccount1/;"
        + "accountname=devstoreaccount1;ACCOUNTKEY=" + KEY);
    assertEquals("http://127.0.0.1:10002/devstoreaccount1", explicit.tableEndpoint(), "keys are case-insensitive");

    ConnectionSettings sas = parse("jdbc:tablesql:TableEndpoint=https://myaccount.table.core.windows.net;"
        + "SharedAccessSignature=" + SAS + ";pageSize=500");
    assertEquals("myaccount", sas.accountName(), "named after the endpoint's host");
    assertEquals(500, sas.getInt(DriverProperty.PAGE_SIZE));
    assertTrue(sas.declaredTables().contains("orders"), "a SAS scoped to a table names it");
  }

  /** Where long values are kept: the BlobEndpoint given, or the one beside the Table endpoint. */
  @Test
  void aWholeNumberOrAutoIsReadAsOneOrNone() throws SQLException {
    assertEquals(java.util.OptionalInt.empty(), parse("jdbc:tablesql:UseDevelopmentStorage=true")
        .wholeOrAuto(io.tablesql.settings.DriverProperty.SCAN_SPLITS));
    assertEquals(java.util.OptionalInt.empty(), parse("jdbc:tablesql:UseDevelopmentStorage=true;scanSplits= AUTO")
        .wholeOrAuto(io.tablesql.settings.DriverProperty.SCAN_SPLITS));
    assertEquals(java.util.OptionalInt.of(4), parse("jdbc:tablesql:UseDevelopmentStorage=true;scanSplits=4")
        .wholeOrAuto(io.tablesql.settings.DriverProperty.SCAN_SPLITS));
  }

  @Test
  void theBlobEndpointIsGivenOrFollowsFromTheTableEndpoint() throws SQLException {
    assertEquals("http://127.0.0.1:10000/devstoreaccount1",
        parse("jdbc:tablesql:UseDevelopmentStorage=true").blobEndpoint());
    assertEquals("https://myaccount.blob.core.windows.net", parse("jdbc:tablesql:AccountName=myaccount;AccountKey="
        + KEY).blobEndpoint());
    assertEquals("https://x.blob.core.windows.net", parse("jdbc:tablesql:AccountName=myaccount;AccountKey=" + KEY
        + ";BlobEndpoint=https://x.blob.core.windows.net/").blobEndpoint());
    assertEquals("https://myaccount.blob.core.windows.net", parse("jdbc:tablesql:TableEndpoint="
        + "https://myaccount.table.core.windows.net;SharedAccessSignature=" + SAS).blobEndpoint());
    assertEquals("http://127.0.0.1:10000/devstoreaccount1", parse("jdbc:tablesql:TableEndpoint="
        + "http://127.0.0.1:10002/devstoreaccount1;AccountName=devstoreaccount1;AccountKey=" + KEY).blobEndpoint());
    assertEquals(null, parse("jdbc:tablesql:TableEndpoint=https://myaccount.table.cosmos.azure.com;AccountKey="
        + KEY).blobEndpoint(), "the Cosmos DB Table API has no Blob storage");
    assertEquals(null, parse("jdbc:tablesql:TableEndpoint=http://localhost:8902/acct;AccountKey=" + KEY)
        .blobEndpoint(), "no rule gives one: BlobEndpoint=... names it");
  }

  @Test
  void thePasswordFieldMayCarryTheCredential() throws SQLException {
    String url = "jdbc:tablesql:AccountName=myaccount";
    for (String password : new String[] {KEY, "AccountKey=" + KEY}) {
      Properties info = new Properties();
      info.setProperty("password", password);
      assertEquals(KEY, ConnectionSettings.parse(url, info).accountKey().reveal());
    }
    Properties info = new Properties();
    info.setProperty("user", "ignored");
    info.setProperty("password", "?" + SAS);
    assertEquals("?" + SAS, ConnectionSettings.parse(url, info).sharedAccessSignature().reveal());
  }

  /** Each property is declared once with the values it takes: its default among them, a bad value refused by it. */
  @Test
  void everyPropertyTakesItsDefaultAndSaysWhatItTakes() throws SQLException {
    for (DriverProperty property : DriverProperty.values()) {
      assertTrue(property.kind().accepts(property.defaultValue()), property.key());
      if (!(property.kind() instanceof PropertyKind.Names)) {
        String url = "jdbc:tablesql:UseDevelopmentStorage=true;" + property.key() + "=-7x";
        SQLException e = assertThrows(SQLException.class, () -> parse(url), property.key());
        assertTrue(e.getMessage().contains(property.kind().expected()), e.getMessage());
      }
    }
    assertEquals("auto or a whole number from 1 to 100", DriverProperty.SCAN_SPLITS.kind().expected());
    assertTrue(DriverProperty.SCAN_SPLITS.kind().accepts("AUTO"));
    assertFalse(DriverProperty.PAGE_SIZE.kind().accepts("1001"));
    assertEquals("postgresql", parse("jdbc:tablesql:UseDevelopmentStorage=true;columnLabels=PostgreSQL")
        .get(DriverProperty.COLUMN_LABELS), "a choice reads as declared, whatever its case");
    assertEquals(Choices.UpsertMode.REPLACE, parse("jdbc:tablesql:UseDevelopmentStorage=true;upsertMode= Replace ")
        .choice(DriverProperty.UPSERT_MODE, Choices.UpsertMode.class), "a choice reads as its enum's constant");
    assertEquals(Choices.KeyOrder.AUTO, parse("jdbc:tablesql:UseDevelopmentStorage=true")
        .choice(DriverProperty.KEY_ORDER, Choices.KeyOrder.class));
    assertEquals("one of jdk, netty", DriverProperty.HTTP_CLIENT.kind().expected(), "the words are the constants'");
  }

  @Test
  void errorsNameTheProblemWithSqlState08001() {
    assertMessage("jdbc:tablesql:AccountName=a;AccountKey=" + KEY + ";pageSize=2000", "pageSize='2000'");
    assertMessage("jdbc:tablesql:AccountName=a;AccountKey=" + KEY + ";keyOrder=random", "sorted");
    assertMessage("jdbc:tablesql:AccountName=a;AccountKey=" + KEY + ";pushdown=yes", "true or false");
    assertMessage("jdbc:tablesql:AccountName=a;AccountKey=" + KEY + ";colour=red", "Unknown connection string key 'colour'");
    assertMessage("jdbc:tablesql:AccountName=a", "no credentials");
    assertMessage("jdbc:tablesql:AccountKey=" + KEY, "names no account");
    assertMessage("jdbc:tablesql:TableEndpoint=not a url;AccountKey=" + KEY, "is not a URL");
  }

  @Test
  void secretsAppearInNoMessageNorToString() throws SQLException {
    String[] mistakes = {
        "jdbc:tablesql:AccountName=a;" + KEY,                       // a key pasted without AccountKey=
        "jdbc:tablesql:AccountName=a;" + KEY.replace("=", ""),
        "jdbc:tablesql:AccountName=a;AccountKey=" + KEY + ";pageSize=x",
        "jdbc:tablesql:TableEndpoint=https://a.table.core.windows.net;" + SAS.replace("sv=", "sv:"),
    };
    for (String url : mistakes) {
      SQLException e = assertThrows(SQLException.class, () -> parse(url), url);
      assertFalse(e.getMessage().contains(KEY.substring(0, 12)), e.getMessage());
      assertFalse(e.getMessage().contains("c2lnbmF0dXJl"), e.getMessage());
    }
    ConnectionSettings settings = parse("jdbc:tablesql:AccountName=a;AccountKey=" + KEY);
    assertFalse(settings.toString().contains(KEY.substring(0, 12)), settings.toString());
    assertFalse(settings.principal().contains(KEY.substring(0, 12)));
  }

  private static void assertMessage(String url, String expected) {
    SQLException e = assertThrows(SQLException.class, () -> parse(url), url);
    assertEquals("08001", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
