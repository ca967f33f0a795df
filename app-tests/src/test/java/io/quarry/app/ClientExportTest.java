package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.ExportQuery;
import io.quarry.bus.Bus;
import io.quarry.bus.Export;
import io.quarry.bus.Source;
import io.quarry.client.Queries;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.streams.WriteStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exports as an application reads them with quarry-client's {@link Queries}: their sources, and reading them whole. */
class ClientExportTest extends ChatTestBase {

  /** About 2.9 MB of CSV: three chunks. Reading table1 gives it a source. */
  static final String BIG = "SELECT i, 'row ' || i || ' of an export that spans several chunks of the bus' AS line,"
      + " (SELECT count(*) FROM table1) AS people FROM range(40000) t(i) ORDER BY i";

  @TempDir
  Path dir;
  Queries queries;
  String me;

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void client() {
    queries = new Queries(chat.node.vertx());
    me = ApiOps.USER_LOCAL.call(new Bus(chat.node.vertx()), null).await().id();
    chat.addDataset(conversation, "/people.parquet");
  }

  @Test
  @DisplayName("an export's file carries the versions of the files its query read, as its result does: through"
      + " Queries#export and on the bus's reply")
  void sources() {
    Export.File file = queries.export(me, conversation, "SELECT name FROM table1", "csv").await();
    assertThat(file.sources()).extracting(Source::table, Source::url)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("table1", chat.files.url("/people.parquet")));
    assertThat(file.sources().get(0).size()).isPositive();
    queries.read(file).await();

    var reply = ApiOps.QUERY_EXPORT.call(new Bus(chat.node.vertx()), new ExportQuery(me, conversation,
        "SELECT name FROM table1", "json")).await();
    Export.File onTheBus = Export.File.fromJson(reply.export());
    assertThat(onTheBus.sources()).isEqualTo(reply.sourceList()).isNotEmpty();
    queries.read(onTheBus).await();
  }

  @Test
  @DisplayName("an export of three chunks streams into a file byte for byte as the whole read gives it, and into a"
      + " stream that is full after every chunk the next chunk is asked for only once it has drained")
  void streams() throws Exception {
    Export.File whole = queries.export(me, conversation, BIG, "csv").await();
    assertThat(whole.bytes()).isGreaterThan(2L * Export.CHUNK_BYTES);
    Buffer expected = queries.read(whole).await();
    Path written = dir.resolve("export.csv");
    queries.read(queries.export(me, conversation, BIG, "csv").await(), written).await();
    assertThat(Buffer.buffer(Files.readAllBytes(written))).isEqualTo(expected);

    Export.File file = queries.export(me, conversation, BIG, "csv").await();
    AtomicInteger asked = new AtomicInteger();
    Handler<DeliveryContext<Object>> counter = delivery -> {
      // Every message to the file's address before the last drain asks for a chunk (its deletion comes after).
      if (delivery.message().address().equals(file.address())) {
        asked.incrementAndGet();
      }
      delivery.next();
    };
    Vertx vertx = chat.node.vertx();
    vertx.eventBus().addOutboundInterceptor(counter);
    try {
      HeldStream held = new HeldStream(vertx, asked);
      queries.read(file, held).await();
      assertThat(held.received).isEqualTo(expected);
      assertThat(held.chunks).hasSize(3).allMatch(size -> size <= Export.CHUNK_BYTES);
      assertThat(held.askedWhenDrained).as("chunks asked for by the time each drained").containsExactly(1, 2, 3);
    } finally {
      vertx.eventBus().removeOutboundInterceptor(counter);
    }
  }

  /**
   * A stream that is full after every write until, a turn of the event loop later, it drains: it notes how many chunks
   * had been asked for at each drain, which is how many it has taken when the reader waits for it.
   */
  static final class HeldStream implements WriteStream<Buffer> {
    final Buffer received = Buffer.buffer();
    final List<Integer> chunks = new CopyOnWriteArrayList<>();
    final List<Integer> askedWhenDrained = new CopyOnWriteArrayList<>();
    private final Vertx vertx;
    private final AtomicInteger asked;
    private boolean full;
    private Handler<Void> drain;

    HeldStream(Vertx vertx, AtomicInteger asked) {
      this.vertx = vertx;
      this.asked = asked;
    }

    @Override
    public Future<Void> write(Buffer data) {
      received.appendBuffer(data);
      chunks.add(data.length());
      full = true;
      vertx.runOnContext(v -> {
        askedWhenDrained.add(asked.get());
        full = false;
        if (drain != null) {
          drain.handle(null);
        }
      });
      return Future.succeededFuture();
    }

    @Override
    public boolean writeQueueFull() {
      return full;
    }

    @Override
    public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
      this.drain = handler;
      return this;
    }

    @Override
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
      return this;
    }

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
      return this;
    }

    @Override
    public Future<Void> end() {
      return Future.succeededFuture();
    }
  }
}
