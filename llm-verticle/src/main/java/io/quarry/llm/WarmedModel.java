package io.quarry.llm;

import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * A model whose SDK may still be warming up ({@link LlmVerticle} builds its Jackson readers on a worker thread as the
 * node starts): a request made meanwhile waits for the warm-up, whatever its outcome, instead of building them on the
 * event loop, where they would stall every answer the node streams for 0.2 s to seconds.
 */
final class WarmedModel implements Model {

  private final Model model;
  private final Future<?> warmUp;

  WarmedModel(Model model, Future<?> warmUp) {
    this.model = model;
    this.warmUp = warmUp;
  }

  @Override
  public Call stream(ModelRequest request, ModelResponse into) {
    return warmUp.isComplete() ? model.stream(request, into) : new Waiting(request, into);
  }

  /** Stopped while it waits, it still starts and is cancelled at once: it ends as any cancelled call does. */
  private final class Waiting implements Call {
    private final Promise<Void> done = Promise.promise();
    private Call call;
    private boolean cancelled;

    Waiting(ModelRequest request, ModelResponse into) {
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
