package io.quarry.testing;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What {@link FakeGemini} and {@link FakeOpenAI} share: a server on 127.0.0.1 that records every request and answers
 * each with the next enqueued script (else the responder's). The steps every provider plays alike — pauses, gates,
 * stalls, HTTP errors, hang-ups — are played here; the provider writes its own through a {@link Player}.
 */
abstract class ScriptedServer<Q extends FakeModel.Request, S extends ScriptedServer.Steps<S>> implements FakeModel<Q> {

  /** One step of a script: those below, or one of the provider's own (its chunks, deltas, calls, finishes). */
  interface Step {
  }

  private record Pause(long ms) implements Step {
  }

  private record Gate(String name) implements Step {
  }

  private record Stall() implements Step {
  }

  /** The status, with the provider's error object sent as {@code {"error": error}}. */
  record HttpError(int status, JsonObject error) implements Step {
  }

  private record HangUp() implements Step {
  }

  private record RawError(int status, String text) implements Step {
  }

  private record RawEvent(String data) implements Step {
  }

  /**
   * A script's steps and those every provider's script has; each provider's Script extends it naming itself as
   * {@code S}, so that these steps return that Script, as its own do.
   */
  abstract static class Steps<S extends Steps<S>> implements FakeModel.Script {
    final List<Step> steps = new ArrayList<>();
    final List<Long> sentNanos = Collections.synchronizedList(new ArrayList<>());
    final Promise<Void> closed = Promise.promise();

    final S add(Step step) {
      steps.add(step);
      return self();
    }

    /** Declared again so that the server can refuse a request with this provider's script of one error. */
    @Override
    public abstract S httpError(int status, String message);

    @Override
    public S answer(String... pieces) {
      for (String piece : pieces) {
        text(piece);
      }
      usage(100, pieces.length);
      return self();
    }

    @Override
    public S pause(long ms) {
      return add(new Pause(ms));
    }

    @Override
    public S gate(String name) {
      return add(new Gate(name));
    }

    @Override
    public S stall() {
      return add(new Stall());
    }

    @Override
    public S hangUp() {
      return add(new HangUp());
    }

    @Override
    public S rawError(int status, String text) {
      return add(new RawError(status, text));
    }

    @Override
    public S rawEvent(String data) {
      return add(new RawEvent(data));
    }

    /** When each step the provider writes was written (System.nanoTime): one time a step, however many events. */
    @Override
    public List<Long> sentNanos() {
      return List.copyOf(sentNanos);
    }

    @Override
    public Future<Void> closed() {
      return closed.future();
    }

    @SuppressWarnings("unchecked") // every subclass names itself as S
    private S self() {
      return (S) this;
    }
  }

  /** How the provider writes its own steps on one response. */
  interface Player {

    /** Writes one of the provider's own steps; whether the response ends with it. */
    boolean play(Step step);

    /** What the provider writes after the last step, before the response ends. */
    default void done() {
    }
  }

  private final Vertx vertx;
  private final String provider;
  private final String name;
  private final Class<S> scriptType;
  private final Supplier<S> newScript;
  private final ConcurrentLinkedQueue<S> scripts = new ConcurrentLinkedQueue<>();
  private final List<Q> requests = Collections.synchronizedList(new ArrayList<>());
  private final BlockingQueue<Q> arrivals = new LinkedBlockingQueue<>();
  private final Map<String, Promise<Void>> gates = new ConcurrentHashMap<>();
  private volatile Function<? super Q, ? extends FakeModel.Script> responder;
  private HttpServer server;

  /** {@code name} is the provider as the fake's failures call it ("the fake Gemini", "FakeGemini: ..."). */
  ScriptedServer(Vertx vertx, String provider, String name, Class<S> scriptType, Supplier<S> newScript) {
    this.vertx = vertx;
    this.provider = provider;
    this.name = name;
    this.scriptType = scriptType;
    this.newScript = newScript;
  }

  /** Serves {@link #handle} on a free port; returns once the port is bound, so {@link #origin()} can be read. */
  final void listen() {
    server = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").await();
  }

  abstract void handle(HttpServerRequest request);

  /** The provider's player of {@code script}'s own steps, for this request, on its response. */
  abstract Player player(S script, Q request, HttpServerResponse response);

  final String origin() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  @Override
  public String provider() {
    return provider;
  }

  @Override
  public S next() {
    S script = newScript.get();
    scripts.add(script);
    return script;
  }

  /**
   * Answers every request that finds no enqueued script with the script {@code responder} makes of it (a load
   * test's many conversations, each in its own state).
   */
  @Override
  public void respondWith(Function<? super Q, ? extends FakeModel.Script> responder) {
    this.responder = responder;
  }

  @Override
  public List<Q> requests() {
    return List.copyOf(requests);
  }

  @Override
  public Q awaitRequest() throws InterruptedException {
    Q request = arrivals.poll(10, TimeUnit.SECONDS);
    if (request == null) {
      throw new AssertionError("no request reached the fake " + name + " within 10 s");
    }
    return request;
  }

  @Override
  public void release(String gate) {
    gate(gate).tryComplete();
  }

  @Override
  public void reset() {
    scripts.clear();
    requests.clear();
    arrivals.clear();
    gates.values().forEach(Promise::tryComplete);
    gates.clear();
    responder = null;
  }

  @Override
  public Future<Void> close() {
    return server.close();
  }

  /** Records a request: {@link #requests()} and {@link #awaitRequest()} see it. */
  final void arrived(Q request) {
    requests.add(request);
    arrivals.add(request);
  }

  /** Plays the script that answers {@code request} on its response, step by step. */
  final void answer(Q request, HttpServerResponse response) {
    S script = scriptFor(request);
    response.closeHandler(v -> script.closed.tryComplete());
    response.endHandler(v -> script.closed.tryComplete());
    run(script, player(script, request, response), response, 0);
  }

  /** The next enqueued script, else the responder's, else the provider's HTTP 500 saying there is none. */
  private S scriptFor(Q request) {
    S script = scripts.poll();
    Function<? super Q, ? extends FakeModel.Script> responder = this.responder;
    if (script == null && responder != null) {
      script = scriptType.cast(responder.apply(request));
    }
    return script != null ? script
        : newScript.get().httpError(500, "Fake" + name + ": no script for request " + requests.size());
  }

  private void run(S script, Player player, HttpServerResponse response, int index) {
    if (response.closed()) {
      return;
    }
    if (index >= script.steps.size()) {
      player.done();
      startStream(response);
      response.end();
      return;
    }
    Step step = script.steps.get(index);
    Runnable next = () -> run(script, player, response, index + 1);
    if (step instanceof Pause pause) {
      vertx.setTimer(pause.ms(), id -> next.run());
    } else if (step instanceof Gate gate) {
      gate(gate.name()).future().onComplete(v -> vertx.runOnContext(x -> next.run()));
    } else if (step instanceof Stall) {
      startStream(response);
      vertx.setTimer(120_000, id -> {
        if (!response.closed()) {
          response.end();
        }
      });
    } else if (step instanceof HttpError error) {
      fail(response, error.status(), error.error());
    } else if (step instanceof RawError raw) {
      response.setStatusCode(raw.status()).putHeader("Content-Type", "text/plain").end(raw.text());
    } else if (step instanceof RawEvent raw) {
      startStream(response);
      response.write("data: " + raw.data() + "\n\n");
      script.sentNanos.add(System.nanoTime());
      next.run();
    } else if (step instanceof HangUp) {
      response.reset();
    } else {
      boolean last = player.play(step);
      script.sentNanos.add(System.nanoTime());
      if (last) {
        response.end();
      } else {
        next.run();
      }
    }
  }

  /** A gate is made by whichever comes first, the step waiting on it or the test releasing it. */
  private Promise<Void> gate(String name) {
    return gates.computeIfAbsent(name, g -> Promise.promise());
  }

  static void startStream(HttpServerResponse response) {
    if (!response.headWritten()) {
      response.setChunked(true).putHeader("Content-Type", "text/event-stream");
    }
  }

  static void fail(HttpServerResponse response, int status, JsonObject error) {
    response.setStatusCode(status).putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("error", error).encode());
  }
}
