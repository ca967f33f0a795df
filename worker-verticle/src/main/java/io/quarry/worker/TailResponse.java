package io.quarry.worker;

import io.vertx.core.http.HttpClientResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a revalidation's answer says of the file's version: its validators, its size (from {@code Content-Range}
 * for a range, {@code Content-Length} otherwise; -1 when unsaid), for a range which bytes it carries, and how long
 * the origin lets a copy be used unasked ({@code Cache-Control}, null when unsaid).
 */
record TailResponse(String etag, String lastModified, long size, long from, long to, String cacheControl) {

  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+)");

  static TailResponse of(HttpClientResponse response) {
    String etag = response.getHeader("ETag");
    String modified = response.getHeader("Last-Modified");
    String cacheControl = response.getHeader("Cache-Control");
    if (response.statusCode() == 206) {
      Matcher m = CONTENT_RANGE.matcher(String.valueOf(response.getHeader("Content-Range")));
      if (m.matches()) {
        return new TailResponse(etag, modified, Long.parseLong(m.group(3)), Long.parseLong(m.group(1)),
            Long.parseLong(m.group(2)) + 1, cacheControl);
      }
      return new TailResponse(etag, modified, -1, -1, -1, cacheControl);
    }
    long length = parseLong(response.getHeader("Content-Length"));
    return new TailResponse(etag, modified, length, 0, length, cacheControl);
  }

  TailResponse withSize(long size) {
    return new TailResponse(etag, lastModified, size, 0, size, cacheControl);
  }

  private static long parseLong(String text) {
    try {
      return text == null ? -1 : Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
