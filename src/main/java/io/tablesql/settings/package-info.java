/**
 * The connection string and the driver properties: {@code ConnectionSettings} (endpoints,
 * credentials, the principal caches are keyed by) and {@code DriverProperty}, each property
 * declared once with its kind, default, range or choices, from which validation,
 * {@code getPropertyInfo}, the messages and {@code docs/driver-properties.md} come.
 */
package io.tablesql.settings;
