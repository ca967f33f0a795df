package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.DataFormat;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FileSniffTest {

  private static Optional<DataFormat> of(String head, String path) {
    return FileSniff.format(head.getBytes(StandardCharsets.ISO_8859_1), path);
  }

  private static Optional<DataFormat> of(int[] head, String path) {
    byte[] bytes = new byte[head.length];
    for (int i = 0; i < head.length; i++) {
      bytes[i] = (byte) head[i];
    }
    return FileSniff.format(bytes, path);
  }

  @Test
  @DisplayName("the first four bytes say Parquet, JSON or CSV; a compressed file's name says which text it holds")
  void formats() {
    assertThat(of("PAR1", "/a.csv")).contains(DataFormat.PARQUET);
    assertThat(of("id,n", "/a")).contains(DataFormat.CSV);
    assertThat(of("id\tn", "/a.tsv")).contains(DataFormat.CSV);
    assertThat(of("[{\"i", "/export")).contains(DataFormat.JSON);
    assertThat(of(" {\"i", "/a.ndjson")).contains(DataFormat.JSON);
    assertThat(of("\u00ef\u00bb\u00bf{", "/bom.json")).as("a UTF-8 byte order mark").contains(DataFormat.JSON);
    assertThat(of("    ", "/spaces.jsonl")).contains(DataFormat.JSON);
    assertThat(of(new int[] {0x1f, 0x8b, 8, 0}, "/a.csv.gz")).contains(DataFormat.CSV);
    assertThat(of(new int[] {0x1f, 0x8b, 8, 0}, "/a.NDJSON.gz")).contains(DataFormat.JSON);
    assertThat(of(new int[] {0x28, 0xb5, 0x2f, 0xfd}, "/a.json.zst")).contains(DataFormat.JSON);
    assertThat(of(new int[] {0x28, 0xb5, 0x2f, 0xfd}, "/dump")).contains(DataFormat.CSV);
  }

  @Test
  @DisplayName("web pages, XML, archives and other binary are not read")
  void refused() {
    assertThat(of("<!DO", "/a.csv")).isEmpty();
    assertThat(of("<?xm", "/a.json")).isEmpty();
    assertThat(of(new int[] {'P', 'K', 3, 4}, "/a.csv")).isEmpty();
    assertThat(of(new int[] {0, 1, 2, 3}, "/a.csv")).isEmpty();
  }

  @Test
  @DisplayName("a URL named .parquet is held to the seed's check: text there is not read as CSV or JSON")
  void parquetByName() {
    assertThat(of("BAD ", "/data/badFormat.parquet")).isEmpty();
    assertThat(of("{\"a\"", "/x.PARQUET")).isEmpty();
    assertThat(of(new int[] {0x1f, 0x8b, 8, 0}, "/a.pq")).isEmpty();
  }
}
