package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptEncodingTest {

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "gzip, deflate, br, zstd | true",
      "GZIP | true",
      "br;q=1.0, gzip;q=0.8, *;q=0.1 | true",
      "x-gzip | true",
      "* | true",
      "identity | false",
      "br, deflate | false",
      "gzip;q=0 | false",
      "gzip; q=0.000 | false",
      "*;q=0 | false",
      "gzip;q=0, * | false",
      "*;q=0.5, gzip;q=0 | false",
      "gzip;q=oops | false",
      "'' | false",
      "NULL | false"})
  void gzip(String header, boolean accepted) {
    assertThat(AcceptEncoding.gzip(header)).isEqualTo(accepted);
  }
}
