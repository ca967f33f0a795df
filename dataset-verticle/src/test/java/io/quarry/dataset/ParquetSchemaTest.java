package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.testing.ParquetFixtures;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetSchemaTest {

  @TempDir
  Path dir;

  private Map<String, String> types(String select) throws IOException {
    byte[] file = ParquetFixtures.write(dir.resolve("t.parquet"), select);
    int length = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    ParquetSchema schema = ParquetSchema.decode(Arrays.copyOfRange(file, file.length - 8 - length, file.length - 8));
    Map<String, String> types = new LinkedHashMap<>();
    schema.columns().forEach(c -> types.put(((JsonObject) c).getString("name"),
        ((JsonObject) c).getString("type") + " | " + ((JsonObject) c).getString("friendly_type")));
    return types;
  }

  @Test
  @DisplayName("scalar columns map to DuckDB types and the friendly types of the spec; a time of day is a Time, bytes"
      + " Binary and a UUID a UUID")
  void scalars() throws IOException {
    assertThat(types("SELECT 1::TINYINT a, 2::SMALLINT b, 3::INTEGER c, 4::BIGINT d, 5::UBIGINT e, 1.5::FLOAT f,"
        + " 2.5::DOUBLE g, 3.25::DECIMAL(5,2) h, 'x' i, true j, DATE '2024-01-01' k, TIMESTAMP '2024-01-01 10:00' l,"
        + " TIMESTAMPTZ '2024-01-01 10:00+00' m, TIME '10:00' n, 'ab'::BLOB o, uuid() p")).containsExactly(
        Map.entry("a", "TINYINT | Integer"), Map.entry("b", "SMALLINT | Integer"), Map.entry("c", "INTEGER | Integer"),
        Map.entry("d", "BIGINT | Integer"), Map.entry("e", "UBIGINT | Integer"), Map.entry("f", "FLOAT | Decimal"),
        Map.entry("g", "DOUBLE | Decimal"), Map.entry("h", "DECIMAL(5,2) | Decimal"), Map.entry("i", "VARCHAR | Text"),
        Map.entry("j", "BOOLEAN | Boolean"), Map.entry("k", "DATE | Date"), Map.entry("l", "TIMESTAMP | Timestamp"),
        Map.entry("m", "TIMESTAMP WITH TIME ZONE | Timestamp"), Map.entry("n", "TIME | Time"),
        Map.entry("o", "BLOB | Binary"), Map.entry("p", "UUID | UUID"));
  }

  @Test
  @DisplayName("lists, structs, maps and their nestings are described as DuckDB would; a map is a Map")
  void nested() throws IOException {
    assertThat(types("SELECT [1, 2] a, {'x': 1, 'y': 'z'} b, MAP {'k': 1} c, [{'p': [1.5::DOUBLE]}] d,"
        + " {'inner': {'deep': [true]}} e")).containsExactly(
        Map.entry("a", "INTEGER[] | List"),
        Map.entry("b", "STRUCT(\"x\" INTEGER, \"y\" VARCHAR) | Struct"),
        Map.entry("c", "MAP(VARCHAR, INTEGER) | Map"),
        Map.entry("d", "STRUCT(\"p\" DOUBLE[])[] | List"),
        Map.entry("e", "STRUCT(\"inner\" STRUCT(\"deep\" BOOLEAN[])) | Struct"));
  }

  @Test
  @DisplayName("bytes that are not a footer fail to decode")
  void garbage() {
    assertThatThrownBy(() -> ParquetSchema.decode(new byte[] {1, 2, 3, 4, 5})).isInstanceOf(Exception.class);
  }
}
