package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.jdbcclient.spi.JDBCEncoder;
import java.util.ServiceLoader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The JDBC client finds SQLite's parameter encoder the way it looks for one: by its service file. */
class SqliteParametersTest {

  @Test
  @DisplayName("the first JDBCEncoder the class path offers is SqliteParameters, which hands values over as they are")
  void found() throws Exception {
    JDBCEncoder encoder = ServiceLoader.load(JDBCEncoder.class).findFirst().orElseThrow();
    assertThat(encoder).isInstanceOf(SqliteParameters.class);
    io.vertx.sqlclient.Tuple tuple = io.vertx.sqlclient.Tuple.of("a", 2L, true, null);
    for (int i = 0; i < tuple.size(); i++) {
      // The JDBC client counts parameters as the driver does, from 1.
      assertThat(encoder.encode(tuple, i + 1, index -> {
        throw new AssertionError("asked the driver about parameter " + index);
      })).isEqualTo(tuple.getValue(i));
    }
  }
}
