package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A process that runs queries loads DuckDB's library while it joins its cluster (see the app's Preinitializer). */
class WorkerRoleTest {

  @Test
  @DisplayName("preload initializes the driver's native class (a DuckDB that renamed it would fail here, not slow every"
      + " worker start unnoticed), and databases open after it")
  void preloadsDuckDb() throws Exception {
    assertThat(WorkerRole.preload()).isTrue();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
         Statement statement = connection.createStatement();
         ResultSet answer = statement.executeQuery("SELECT 6 * 7")) {
      assertThat(answer.next()).isTrue();
      assertThat(answer.getInt(1)).isEqualTo(42);
    }
  }

  @Test
  @DisplayName("a class the driver no longer has is reported as not loaded, without throwing on the preinitializer's"
      + " thread")
  void missingClass() {
    assertThat(WorkerRole.initialize("org.duckdb.NoSuchNativeLoader")).isFalse();
  }
}
