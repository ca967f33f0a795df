package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DatabaseBudgetTest {

  static final long MB = 1L << 20;
  static final long IDLE = 12 * MB;

  @Test
  @DisplayName("memory limits read as DuckDB reads them: KB, MB, GB in powers of 1,000, KiB, MiB, GiB of 1,024")
  void sizes() {
    assertThat(DatabaseBudget.bytes("1GB")).isEqualTo(1_000_000_000L);
    assertThat(DatabaseBudget.bytes("512MB")).isEqualTo(512_000_000L);
    assertThat(DatabaseBudget.bytes("1.5 GiB")).isEqualTo(3L << 29);
    assertThat(DatabaseBudget.bytes("64mib")).isEqualTo(64 * MB);
    assertThat(DatabaseBudget.bytes("4096")).isEqualTo(4096);
    assertThatThrownBy(() -> DatabaseBudget.bytes("lots")).hasMessageContaining("worker.memoryLimit");
  }

  @Test
  @DisplayName("an idle database maps its background threads' stacks (one fewer than its threads) and 4 MB more")
  void idleDatabase() {
    assertThat(DatabaseBudget.idleDatabaseBytes(2, 8 * MB)).isEqualTo(IDLE);
    assertThat(DatabaseBudget.idleDatabaseBytes(2, 2 * MB)).isEqualTo(6 * MB);
    assertThat(DatabaseBudget.idleDatabaseBytes(4, 2 * MB)).isEqualTo(10 * MB);
    assertThat(DatabaseBudget.idleDatabaseBytes(1, 2 * MB)).as("no background thread").isEqualTo(4 * MB);
    assertThat(DatabaseBudget.idleDatabaseBytes(2, 0)).as("an unlimited stack limit counts as 8 MB").isEqualTo(IDLE);
  }

  @Test
  @DisplayName("under a cap, idle databases get what is left once the process and every running query's limit count")
  void underACap() {
    long cap = 3072 * MB;
    long used = 800 * MB;
    // 3,072 - 800 - 2 x 953.7 (1 GB) = 364.6 MB, 30 databases of 12 MB
    assertThat(DatabaseBudget.databases("1GB", 2, IDLE, cap, used)).isEqualTo(30);
    assertThat(DatabaseBudget.databases("1GB", 2, IDLE, cap, used + 364 * MB)).as("nothing left")
        .isEqualTo(DatabaseBudget.MIN);
  }

  @Test
  @DisplayName("without a cap, idle databases may take as much as one query's memory limit")
  void withoutACap() {
    assertThat(DatabaseBudget.databases("1GiB", 2, IDLE, 0, 800 * MB)).isEqualTo(85);
    assertThat(DatabaseBudget.databases("1TB", 2, IDLE, 0, 800 * MB)).isEqualTo(DatabaseBudget.MAX);
  }
}
