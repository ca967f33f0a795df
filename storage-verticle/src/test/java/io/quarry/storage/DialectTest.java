package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DialectTest {

  @Test
  @DisplayName("PostgreSQL gets ? parameters numbered, but not a ? inside a string or a quoted name; SQLite gets them as written")
  void numbered() {
    String sql = "SELECT 'what?' AS \"who?\", x FROM t WHERE a = ? AND b IN (?, ?)";
    assertThat(Dialect.POSTGRES.sql(sql)).isEqualTo("SELECT 'what?' AS \"who?\", x FROM t WHERE a = $1 AND b IN ($2, $3)");
    assertThat(Dialect.SQLITE.sql(sql)).isEqualTo(sql);
  }
}
