package io.tablesql.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The packaged driver jar in a class loader of its own, the way an application or a tool holds
 * it: the JDK as parent and nothing of the test class path, except the jars of libraries that
 * must find the driver by class name themselves (HikariCP loads {@code dataSourceClassName} with
 * its own class loader). Loading it registers the jar's driver with {@link java.sql.DriverManager}
 * as discovery on an application's class path would; {@code DriverManager} hands that driver
 * only to callers whose class loader sees it, so it never meets the test class path's own.
 */
final class IsolatedDriverJar implements AutoCloseable {
  static final String DRIVER_CLASS = "io.tablesql.TableSqlDriver";
  static final String DATA_SOURCE_CLASS = "io.tablesql.TableSqlDataSource";
  private static final String STATEMENT_INTERFACE = "io.tablesql.TableSqlStatement";

  private final URLClassLoader loader;

  private IsolatedDriverJar(URLClassLoader loader) {
    this.loader = loader;
  }

  /** The driver jar alone, with the jars holding each of {@code libraries} beside it. */
  static IsolatedDriverJar load(Class<?>... libraries) {
    Path jar = Path.of(System.getProperty("tablesql.driverJar", "target/tablesql-driver.jar"));
    assertThat(jar).as("the packaged driver jar (mvn package)").exists();
    List<URL> urls = new ArrayList<>();
    try {
      urls.add(jar.toUri().toURL());
      for (Class<?> library : libraries) {
        urls.add(library.getProtectionDomain().getCodeSource().getLocation().toURI().toURL());
      }
    } catch (MalformedURLException | URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    IsolatedDriverJar driverJar = new IsolatedDriverJar(loader);
    driverJar.loadClass(DRIVER_CLASS); // registers itself, as META-INF/services discovery would
    return driverJar;
  }

  ClassLoader classLoader() {
    return loader;
  }

  Class<?> loadClass(String name) {
    try {
      Class<?> loaded = Class.forName(name, true, loader);
      assertThat(loaded.getClassLoader()).as(name + " comes from the isolated class loader").isSameAs(loader);
      return loaded;
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A new instance of a public class of the isolated class path, by its no-argument constructor. */
  <T> T newInstance(String className, Class<T> type) {
    return type.cast(construct(loadClass(className), new Class<?>[0]));
  }

  Driver driver() {
    return newInstance(DRIVER_CLASS, Driver.class);
  }

  /** The jar's {@code TableSqlDataSource}, set up with {@code setUrl} as a Java application would. */
  DataSource dataSource(String url) {
    DataSource dataSource = newInstance(DATA_SOURCE_CLASS, DataSource.class);
    try {
      dataSource.getClass().getMethod("setUrl", String.class).invoke(dataSource, url);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    return dataSource;
  }

  /** {@code statement.unwrap(TableSqlStatement.class).requestCount()} for a statement of any class loader. */
  static long requestCount(Statement statement) throws SQLException {
    try {
      Class<?> counters = Class.forName(STATEMENT_INTERFACE, false, statement.unwrap(Statement.class).getClass()
          .getClassLoader());
      Object unwrapped = statement.unwrap(counters);
      return (long) counters.getMethod("requestCount").invoke(unwrapped);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  static Object construct(Class<?> type, Class<?>[] parameterTypes, Object... arguments) {
    try {
      return type.getConstructor(parameterTypes).newInstance(arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws Exception {
    loader.close();
  }
}
