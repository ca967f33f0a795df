package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The UI's own files, from memory: a browser that has a file asks whether it is current, and gets no body if it is; a
 * reader of the sample data gets the ranges it asks for.
 */
class WebrootTest {

  Vertx vertx;
  WebClient client;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    client = WebOnlyNode.start(vertx);
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  /** Every file under webroot/js and webroot/css, as its path on the server ("/js/app.js"). */
  private static List<String> assets() throws Exception {
    List<String> all = new ArrayList<>();
    for (String folder : List.of("js", "css")) {
      try (Stream<Path> files = Files.list(webroot().resolve(folder))) {
        files.map(f -> "/" + folder + "/" + f.getFileName()).sorted().forEach(all::add);
      }
    }
    return all;
  }

  private static Path webroot() throws URISyntaxException {
    return Path.of(WebrootTest.class.getClassLoader().getResource("webroot/index.html").toURI()).getParent();
  }

  private static byte[] bytes(String path) throws Exception {
    return Files.readAllBytes(webroot().resolve(path.substring(1)));
  }

  @Test
  @DisplayName("every script and style sheet is served byte for byte with an ETag and Cache-Control: no-cache; asked"
      + " again with its tag it is 304 without a body, with another file's tag it comes whole")
  void revalidated() throws Exception {
    List<String> assets = assets();
    assertThat(assets).as("the UI's files").contains("/js/app.js", "/css/app.css").hasSizeGreaterThan(50);
    Set<String> tags = new HashSet<>();
    String previous = null;
    for (String path : assets) {
      HttpResponse<Buffer> served = client.get(path).send().await();
      assertThat(served.statusCode()).as(path).isEqualTo(200);
      assertThat(served.getHeader("content-type")).as(path)
          .isEqualTo(path.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8");
      assertThat(served.getHeader("cache-control")).as(path).isEqualTo("no-cache");
      assertThat(served.body().getBytes()).as(path).isEqualTo(bytes(path));
      String etag = served.getHeader("etag");
      assertThat(etag).as(path).startsWith("\"").endsWith("\"");
      tags.add(etag);

      HttpResponse<Buffer> current = client.get(path).putHeader("If-None-Match", etag).send().await();
      assertThat(current.statusCode()).as(path).isEqualTo(304);
      assertThat(current.body()).as(path).isNull();
      assertThat(current.getHeader("etag")).as(path).isEqualTo(etag);
      if (previous != null) {
        HttpResponse<Buffer> stale = client.get(path).putHeader("If-None-Match", previous).send().await();
        assertThat(stale.statusCode()).as(path).isEqualTo(200);
        assertThat(stale.body().getBytes()).as(path).isEqualTo(bytes(path));
      }
      HttpResponse<Buffer> head = client.head(path).send().await();
      assertThat(head.statusCode()).as(path).isEqualTo(200);
      assertThat(head.getHeader("etag")).as(path).isEqualTo(etag);
      assertThat(head.body()).as(path).isNull();
      previous = etag;
    }
    assertThat(tags).as("one tag a file").hasSameSizeAs(assets);
  }

  @Test
  @DisplayName("a browser that accepts gzip gets each file gzipped (the same bytes once unzipped) under a tag of its own,"
      + " and 304 when it names that tag; one that does not, or refuses gzip with q=0, gets the bytes as they are;"
      + " every answer says it varies with Accept-Encoding")
  void gzipped() throws Exception {
    for (String path : assets()) {
      HttpResponse<Buffer> zipped = client.get(path).putHeader("Accept-Encoding", "gzip, deflate, br").send().await();
      assertThat(zipped.statusCode()).as(path).isEqualTo(200);
      assertThat(zipped.getHeader("content-encoding")).as(path).isEqualTo("gzip");
      assertThat(zipped.getHeader("vary")).as(path).isEqualTo("Accept-Encoding");
      assertThat(zipped.body().length()).as(path).isLessThan(bytes(path).length);
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body().getBytes()))) {
        assertThat(in.readAllBytes()).as(path).isEqualTo(bytes(path));
      }
      String tag = zipped.getHeader("etag");
      HttpResponse<Buffer> plain = client.get(path).send().await();
      assertThat(plain.getHeader("content-encoding")).as(path).isNull();
      assertThat(plain.getHeader("vary")).as(path).isEqualTo("Accept-Encoding");
      assertThat(plain.getHeader("etag")).as(path).isNotEqualTo(tag);
      assertThat(plain.body().getBytes()).as(path).isEqualTo(bytes(path));

      HttpResponse<Buffer> current = client.get(path).putHeader("Accept-Encoding", "gzip")
          .putHeader("If-None-Match", tag).send().await();
      assertThat(current.statusCode()).as(path).isEqualTo(304);
      assertThat(current.getHeader("etag")).as(path).isEqualTo(tag);
      HttpResponse<Buffer> otherForm = client.get(path).putHeader("Accept-Encoding", "gzip")
          .putHeader("If-None-Match", plain.getHeader("etag")).send().await();
      assertThat(otherForm.statusCode()).as(path + ": the plain file's tag, gzip accepted").isEqualTo(200);
      assertThat(otherForm.getHeader("content-encoding")).as(path).isEqualTo("gzip");
      HttpResponse<Buffer> refused = client.get(path).putHeader("Accept-Encoding", "gzip;q=0, br").send().await();
      assertThat(refused.getHeader("content-encoding")).as(path).isNull();
      assertThat(refused.body().getBytes()).as(path).isEqualTo(bytes(path));
    }
  }

  @Test
  @DisplayName("the API's answers are not compressed, whatever the browser accepts (BREACH: a secret beside text an"
      + " attacker chose would leak through the compressed length)")
  void apiUncompressed() {
    HttpResponse<Buffer> me = client.get("/api/me").putHeader("Accept-Encoding", "gzip").send().await();
    assertThat(me.getHeader("content-encoding")).isNull();
    assertThat(me.bodyAsString()).startsWith("{");
  }

  @Test
  @DisplayName("every other file of webroot (pages, icons, samples, a vendored script, READMEs) is served byte for byte"
      + " with its type, an ETag and Cache-Control: no-cache, and / is the main page")
  void everyFile() throws Exception {
    Map<String, String> types = Map.of("html", "text/html;charset=UTF-8", "js", "text/javascript; charset=utf-8",
        "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "ico", "image/x-icon",
        "parquet", "application/vnd.apache.parquet", "md", "text/markdown; charset=utf-8");
    Path webroot = webroot();
    List<String> files;
    try (Stream<Path> all = Files.walk(webroot)) {
      files = all.filter(Files::isRegularFile).map(f -> "/" + webroot.relativize(f).toString().replace('\\', '/'))
          .sorted().toList();
    }
    assertThat(files).as("webroot's files").contains("/index.html", "/board.html", "/shared.html", "/favicon.ico",
        "/samples/cars.parquet", "/vendor/vega-interpreter-1.2.0/vega-interpreter.min.js");
    for (String path : files) {
      HttpResponse<Buffer> served = client.get(path).send().await();
      assertThat(served.statusCode()).as(path).isEqualTo(200);
      assertThat(served.getHeader("content-type")).as(path).isEqualTo(types.get(path.substring(path.lastIndexOf('.') + 1)));
      assertThat(served.getHeader("cache-control")).as(path).isEqualTo("no-cache");
      assertThat(served.getHeader("etag")).as(path).isNotNull();
      assertThat(served.body().getBytes()).as(path).isEqualTo(bytes(path));
    }
    HttpResponse<Buffer> root = client.get("/").send().await();
    assertThat(root.getHeader("content-type")).isEqualTo("text/html;charset=UTF-8");
    assertThat(root.body().getBytes()).isEqualTo(bytes("/index.html"));
    assertThat(client.get("/").putHeader("If-None-Match", root.getHeader("etag")).send().await().statusCode())
        .as("the main page, current").isEqualTo(304);
  }

  @Test
  @DisplayName("a conversation's and a board's address serve their page as / does (a reload is 304); one that can name"
      + " nothing serves it as a 404 without a tag; a shared link's page is kept by no cache")
  void pages() throws Exception {
    String id = "/0b9c6b3e-7f2a-4c1d-9e8f-123456789abc";
    Map<String, String> pages = Map.of("/c" + id, "/index.html", "/b" + id, "/board.html", "/boards", "/board.html");
    for (Map.Entry<String, String> page : pages.entrySet()) {
      HttpResponse<Buffer> served = client.get(page.getKey()).send().await();
      assertThat(served.statusCode()).as(page.getKey()).isEqualTo(200);
      assertThat(served.getHeader("content-type")).as(page.getKey()).isEqualTo("text/html;charset=UTF-8");
      assertThat(served.getHeader("cache-control")).as(page.getKey()).isEqualTo("no-cache");
      assertThat(served.body().getBytes()).as(page.getKey()).isEqualTo(bytes(page.getValue()));
      String tag = client.get(page.getValue()).send().await().getHeader("etag");
      assertThat(served.getHeader("etag")).as(page.getKey()).isEqualTo(tag).isNotNull();
      assertThat(client.get(page.getKey()).putHeader("If-None-Match", tag).send().await().statusCode())
          .as(page.getKey() + ", current").isEqualTo(304);
    }
    for (String nothing : List.of("/c/not-an-id", "/b/not-an-id")) {
      HttpResponse<Buffer> served = client.get(nothing).send().await();
      assertThat(served.statusCode()).as(nothing).isEqualTo(404);
      assertThat(served.getHeader("content-type")).as(nothing).isEqualTo("text/html;charset=UTF-8");
      assertThat(served.getHeader("cache-control")).as(nothing).isEqualTo("no-cache");
      assertThat(served.getHeader("etag")).as(nothing).isNull();
      assertThat(served.bodyAsString()).as(nothing).contains("<html");
    }
    HttpResponse<Buffer> shared = client.get("/s/some-token").send().await();
    assertThat(shared.statusCode()).isEqualTo(200);
    assertThat(shared.getHeader("cache-control")).isEqualTo("no-store");
    assertThat(shared.getHeader("etag")).isNull();
    assertThat(shared.body().getBytes()).isEqualTo(bytes("/shared.html"));
  }

  @Test
  @DisplayName("a reader of a sample gets the one range it asks for (206, Content-Range), 416 for one past the end, and"
      + " the whole file for several ranges, an unreadable one, or an If-Range naming another version")
  void ranges() throws Exception {
    String path = "/samples/cars.parquet";
    byte[] whole = bytes(path);
    int length = whole.length;
    HttpResponse<Buffer> plain = client.get(path).send().await();
    assertThat(plain.getHeader("accept-ranges")).isEqualTo("bytes");
    assertThat(plain.getHeader("vary")).as("binary: never gzipped").isNull();
    String tag = plain.getHeader("etag");
    Map<String, int[]> spans = Map.of("bytes=0-3", new int[] {0, 3}, "bytes=-8", new int[] {length - 8, length - 1},
        "bytes=100-", new int[] {100, length - 1}, "bytes=10-999999999", new int[] {10, length - 1},
        "bytes=-999999", new int[] {0, length - 1}, "bytes=" + (length - 1) + "-" + (length - 1),
        new int[] {length - 1, length - 1});
    for (Map.Entry<String, int[]> span : spans.entrySet()) {
      int from = span.getValue()[0];
      int last = span.getValue()[1];
      for (String ifRange : new String[] {null, tag}) {
        var request = client.get(path).putHeader("Range", span.getKey()).putHeader("Accept-Encoding", "gzip");
        HttpResponse<Buffer> part = (ifRange == null ? request : request.putHeader("If-Range", ifRange)).send().await();
        assertThat(part.statusCode()).as(span.getKey()).isEqualTo(206);
        assertThat(part.getHeader("content-range")).as(span.getKey())
            .isEqualTo("bytes " + from + "-" + last + "/" + length);
        assertThat(part.getHeader("content-encoding")).as(span.getKey()).isNull();
        assertThat(part.body().getBytes()).as(span.getKey()).isEqualTo(Arrays.copyOfRange(whole, from, last + 1));
      }
    }
    for (String past : List.of("bytes=" + length + "-", "bytes=" + length + "-" + (length + 10), "bytes=-0")) {
      HttpResponse<Buffer> refused = client.get(path).putHeader("Range", past).send().await();
      assertThat(refused.statusCode()).as(past).isEqualTo(416);
      assertThat(refused.getHeader("content-range")).as(past).isEqualTo("bytes */" + length);
    }
    for (String unread : List.of("bytes=0-1,4-5", "bytes=5-2", "bytes=-", "lines=0-3", "bytes=x-3")) {
      HttpResponse<Buffer> all = client.get(path).putHeader("Range", unread).send().await();
      assertThat(all.statusCode()).as(unread).isEqualTo(200);
      assertThat(all.body().getBytes()).as(unread).isEqualTo(whole);
    }
    HttpResponse<Buffer> otherVersion = client.get(path).putHeader("Range", "bytes=0-3")
        .putHeader("If-Range", "\"another\"").send().await();
    assertThat(otherVersion.statusCode()).isEqualTo(200);
    assertThat(otherVersion.body().getBytes()).isEqualTo(whole);
    HttpResponse<Buffer> head = client.head(path).putHeader("Range", "bytes=0-3").send().await();
    assertThat(head.statusCode()).as("HEAD ignores Range").isEqualTo(200);
    assertThat(head.getHeader("content-length")).isEqualTo(String.valueOf(length));
  }

  @Test
  @DisplayName("a missing file, a folder, a hidden or unknown kind of file and a path out of webroot are 404")
  void nothingElse() {
    for (String path : List.of("/samples/", "/samples", "/vendor/vega-interpreter-1.2.0", "/vendor/", "/missing.html",
        "/.hidden.html", "/samples/.cars.parquet", "/%2e%2e/pom.xml", "/../webroot/index.html",
        "/io/quarry/chat/ChatVerticle.class", "/logback.xml", "/META-INF/MANIFEST.MF", "/webroot/index.html",
        "/index.html/", "/favicon.ico/x")) {
      assertThat(client.get(path).send().await().statusCode()).as(path).isEqualTo(404);
    }
    assertThat(client.post("/favicon.ico").send().await().statusCode()).as("POST").isEqualTo(404);
  }

  @Test
  @DisplayName("a missing script, a folder, a path out of the folder or into another one is 404, as before")
  void onlyTheirFiles() {
    for (String path : List.of("/js/missing.js", "/js/", "/css/", "/js/../index.html.js", "/js/%2e%2e/index.js",
        "/js/vendor/x.js", "/css/app.js", "/js/app.css")) {
      assertThat(client.get(path).send().await().statusCode()).as(path).isEqualTo(404);
    }
    assertThat(client.get("/js/missing.js").send().await().statusCode()).as("asked for again").isEqualTo(404);
    assertThat(client.get("/js/app.js?v=2").send().await().statusCode()).as("a query string").isEqualTo(200);
  }
}
