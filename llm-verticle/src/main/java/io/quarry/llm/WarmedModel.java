package io.quarry.llm;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.function.Supplier;

/**
 * A model whose SDK may still be warming up ({@link LlmVerticle} builds its Jackson readers on a worker thread once the
 * node has started, not while it starts: on two cores that work held the node's start up by about 0.3 s): a request
 * made before the warm-up has ended waits for it, whatever its outcome, instead of building them on the event loop,
 * where they would stall every answer the node streams for 0.2 s to seconds. The first request begins the warm-up
 * itself if nothing has yet. Confined to the llm verticle's event loop, as its callers are.
 */
final class WarmedModel implements Model {

  private final Model model;
  private final Supplier<Future<?>> warming;
  /** Volatile for the tests that ask, from their own thread, whether it has begun. */
  private volatile Future<?> warmUp;

  WarmedModel(Model model, Supplier<Future<?>> warming) {
    this.model = model;
    this.warming = warming;
  }

  /** Begins the warm-up unless it has begun: when the node has started, or at the first request. */
  Future<?> warmUp() {
    if (warmUp == null) {
      warmUp = warming.get();
    }
    return warmUp;
  }

  boolean begun() {
    return warmUp != null;
  }

  @Override
  public Call stream(ModelRequest request, ModelResponse into) {
    Future<?> warm = warmUp();
    return warm.isComplete() ? model.stream(request, into) : new Waiting(warm, request, into);
  }

  /** Stopped while it waits, it still starts and is cancelled at once: it ends as any cancelled call does. */
  private final class Waiting implements Call {
    private final Promise<Void> done = Promise.promise();
    private Call call;
    private boolean cancelled;

    Waiting(Future<?> warmUp, ModelRequest request, ModelResponse into) {
      warmUp.onComplete(warmed -> {
        call = model.stream(request, into);
        if (cancelled) {
          call.cancel();
        }
        call.done().onComplete(done);
      });
    }

    @Override
    public Future<Void> done() {
      return done.future();
    }

    @Override
    public void cancel() {
      cancelled = true;
      if (call != null) {
        call.cancel();
      }
    }
  }

  @Override
  public String speaker() {
    return model.speaker();
  }

  @Override
  public String id() {
    return model.id();
  }

  @Override
  public String provider() {
    return model.provider();
  }

  @Override
  public Future<Void> close() {
    return model.close();
  }
}
