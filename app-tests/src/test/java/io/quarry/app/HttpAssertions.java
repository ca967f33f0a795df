package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;

/** Assertions on Quarry's error responses: the status, and the message of {@code {"error": ...}}. */
final class HttpAssertions {

  private HttpAssertions() {
  }

  static void assertError(HttpResponse<Buffer> response, int status, String message) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(status);
    assertThat(response.bodyAsJsonObject().getString("error")).isEqualTo(message);
    assertThat(response.bodyAsString()).doesNotContain("\tat ").doesNotContain("Exception");
  }
}
