package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TableNamesTest {

  @Test
  @DisplayName("a name is a SQL identifier of at most 63 characters that is not a reserved word")
  void names() {
    assertThat(TableNames.check("sales_2024")).isEqualTo("sales_2024");
    assertThat(TableNames.check("_x")).isEqualTo("_x");
    assertThat(TableNames.check("a".repeat(63))).hasSize(63);
    for (String bad : new String[] {"a".repeat(64), "2024_sales", "my table", "drop;table", "naïve", "a-b", ""}) {
      assertThatThrownBy(() -> TableNames.check(bad)).as(bad).hasMessageStartingWith(bad.isEmpty()
          ? "Field 'name' is required" : "Name must be a valid SQL identifier");
    }
    assertThatThrownBy(() -> TableNames.check("Select")).hasMessage("'Select' is a reserved SQL word; choose another name");
  }
}
