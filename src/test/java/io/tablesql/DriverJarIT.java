package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The packaged driver jar, loaded alone in its own class loader the way DBeaver or Tableau load
 * a driver: found through META-INF/services, connected, queried.
 */
class DriverJarIT {
  @Test
  void driverJarWorksAloneInAnIsolatedClassLoader() throws Exception {
    Path jar = Path.of(System.getProperty("tablesql.driverJar"));
    assertThat(jar).exists();
    String table = TestAccount.newTable("Jar").getTableName();
    TestAccount.insert(TestAccount.service().getTableClient(table),
        List.of(new TableEntity("p", "1").addProperty("Name", "Ann")));

    ClassLoader platform = ClassLoader.getPlatformClassLoader(); // the JDK only: no test classpath
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, platform)) {
      Driver driver = ServiceLoader.load(Driver.class, loader).stream().map(ServiceLoader.Provider::get)
          .filter(d -> d.getClass().getName().equals("io.tablesql.TableSqlDriver")).findFirst().orElseThrow();
      assertThat(driver.getClass().getClassLoader()).isSameAs(loader);
      ClassLoader previous = Thread.currentThread().getContextClassLoader();
      Thread.currentThread().setContextClassLoader(platform); // tools do not set it to the driver's
      try (Connection connection = driver.connect(TestAccount.url(), new Properties());
           Statement statement = connection.createStatement();
           ResultSet resultSet = statement.executeQuery(
               "SELECT Name FROM " + table + " WHERE PartitionKey = 'p' AND RowKey = '1'")) {
        assertThat(resultSet.next()).isTrue();
        assertThat(resultSet.getString(1)).isEqualTo("Ann");
      } finally {
        Thread.currentThread().setContextClassLoader(previous);
      }
    }
  }

  /** A client of the jar binds and reads java.time values: the UTC wall clock, in the JVM's (non-UTC) zone. */
  @Test
  void javaTimeValuesBindAndReadThroughTheJar() throws Exception {
    assertThat(java.util.TimeZone.getDefault().getRawOffset()).isNotZero();
    String table = TestAccount.newTable("JarTime").getTableName();
    TestAccount.insert(TestAccount.service().getTableClient(table), List.of(new TableEntity("p", "1")
        .addProperty("HireDate", OffsetDateTime.parse("2014-04-22T14:19:55Z"))));
    ClassLoader platform = ClassLoader.getPlatformClassLoader();
    try (URLClassLoader loader = new URLClassLoader(
        new URL[] {Path.of(System.getProperty("tablesql.driverJar")).toUri().toURL()}, platform)) {
      Driver driver = (Driver) Class.forName("io.tablesql.TableSqlDriver", true, loader).getDeclaredConstructor()
          .newInstance();
      try (Connection connection = driver.connect(TestAccount.url(), new Properties());
           PreparedStatement statement = connection.prepareStatement(
               "SELECT HireDate FROM " + table + " WHERE HireDate = ?")) {
        statement.setObject(1, LocalDateTime.parse("2014-04-22T14:19:55"));
        try (ResultSet resultSet = statement.executeQuery()) {
          assertThat(resultSet.next()).isTrue();
          assertThat(resultSet.getObject(1, LocalDateTime.class)).isEqualTo(LocalDateTime.parse("2014-04-22T14:19:55"));
          assertThat(resultSet.getObject(1, Instant.class)).isEqualTo(Instant.parse("2014-04-22T14:19:55Z"));
          assertThat(resultSet.getTimestamp(1)).hasToString("2014-04-22 14:19:55.0");
        }
      }
    }
  }

  @Test
  void nettyIsRefusedByNameWithoutIt() throws Exception {
    try (URLClassLoader loader = new URLClassLoader(
        new URL[] {Path.of(System.getProperty("tablesql.driverJar")).toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Driver driver = (Driver) Class.forName("io.tablesql.TableSqlDriver", true, loader).getDeclaredConstructor()
          .newInstance();
      assertThatThrownBy(() -> driver.connect(TestAccount.url("httpClient=netty"), new Properties()))
          .isInstanceOfSatisfying(java.sql.SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("08001");
            assertThat(e.getMessage()).contains("azure-core-http-netty").contains("httpClient=jdk");
          });
    }
  }

  @Test
  void clashProneLibrariesAreRelocated() throws Exception {
    try (JarFile jar = new JarFile(System.getProperty("tablesql.driverJar"))) {
      assertThat(jar.stream().map(entry -> entry.getName()))
          .noneMatch(name -> name.startsWith("com/fasterxml/") || name.startsWith("com/google/")
              || name.startsWith("com/github/benmanes/") || name.startsWith("reactor/")
              || name.startsWith("org/slf4j/"))
          .anyMatch(name -> name.startsWith("io/tablesql/shaded/jackson/"));
      assertThat(new String(jar.getInputStream(jar.getEntry("META-INF/services/java.sql.Driver")).readAllBytes())
          .trim()).isEqualTo("io.tablesql.TableSqlDriver");
    }
    assertThat(Files.size(Path.of(System.getProperty("tablesql.driverJar")))).isLessThan(60L << 20);
  }

  @Test
  void theJarHoldsTheDriverNotTheTools() throws Exception {
    try (JarFile jar = new JarFile(System.getProperty("tablesql.driverJar"))) {
      assertThat(jar.stream().map(entry -> entry.getName()))
          .noneMatch(name -> name.startsWith("io/tablesql/shell/") || name.startsWith("io/tablesql/bench/")
              || name.startsWith("sqlline/") || name.startsWith("org/jline/"));
    }
  }
}
