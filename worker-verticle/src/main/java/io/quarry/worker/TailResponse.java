package io.quarry.worker;

import io.vertx.core.http.HttpClientResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a revalidation's answer says of the file's version: its validators, its size (from {@code Content-Range}
 * for a range, {@code Content-Length} otherwise; -1 when unsaid) and, for a range, which bytes it carries.
 */
record TailResponse(String etag, String lastModified, long size, long from, long to) {

  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+)");

  static TailResponse of(HttpClientResponse response) {
    String etag = response.getHeader("ETag");
    String modified = response.getHeader("Last-Modified");
    if (response.statusCode() == 206) {
      Matcher m = CONTENT_RANGE.matcher(String.valueOf(response.getHeader("Content-Range")));
      if (m.matches()) {
        return new TailResponse(etag, modified, Long.parseLong(m.group(3)), Long.parseLong(m.group(1)),
            Long.parseLong(m.group(2)) + 1);
      }
      return new TailResponse(etag, modified, -1, -1, -1);
    }
    long length = parseLong(response.getHeader("Content-Length"));
    return new TailResponse(etag, modified, length, 0, length);
  }

  TailResponse withSize(long size) {
    return new TailResponse(etag, lastModified, size, 0, size);
  }

  private static long parseLong(String text) {
    try {
      return text == null ? -1 : Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
