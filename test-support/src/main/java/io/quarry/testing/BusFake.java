package io.quarry.testing;

import io.quarry.bus.Bus;
import io.quarry.bus.Operation;
import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A fake neighbour: a verticle bound to contract addresses that records every request and can fail or hold
 * the next calls of an address. Its state lives on its own event loop, so the methods a test calls hop there
 * and answer with a future (a test awaits it).
 */
public abstract class BusFake extends VerticleBase {

  /** One request as it arrived: its address and the request record its operation decoded. */
  public record Request(String address, Object request) {
  }

  /** An operation this fake serves, and how: {@code answer} throws a {@link QuarryException} to fail. */
  protected record Handler<Q, R>(Operation<Q, R> op, Function<Q, R> answer) {
  }

  private final List<Request> requests = new ArrayList<>();
  /** What the next calls of an address get instead of their answer, in order. */
  private final Map<String, Deque<Supplier<Future<?>>>> planned = new HashMap<>();
  /** Calls held by {@link #holdNext}, oldest first. */
  private final Deque<Promise<Void>> held = new ArrayDeque<>();

  /** Each operation this fake serves, with how. */
  protected abstract List<Handler<?, ?>> handlers();

  protected static <Q, R> Handler<Q, R> handle(Operation<Q, R> op, Function<Q, R> answer) {
    return new Handler<>(op, answer);
  }

  protected static <F extends BusFake> Future<F> deploy(Vertx vertx, F fake) {
    return vertx.deployVerticle(fake).map(id -> fake);
  }

  @Override
  public Future<?> start() {
    Bus bus = new Bus(vertx);
    return Future.all(handlers().stream().map(handler -> serve(bus, handler).completion()).toList());
  }

  private <Q, R> MessageConsumer<Object> serve(Bus bus, Handler<Q, R> handler) {
    return bus.serve(handler.op(), request -> answer(handler, request));
  }

  private <Q, R> Future<R> answer(Handler<Q, R> handler, Q request) {
    String address = handler.op().address();
    requests.add(new Request(address, request));
    Deque<Supplier<Future<?>>> next = planned.getOrDefault(address, new ArrayDeque<>());
    if (next.isEmpty()) {
      return Future.succeededFuture(handler.answer().apply(request));
    }
    // What is planned fails, never answers, or holds the call until the test lets it have its answer.
    return next.poll().get().compose(v -> Future.succeededFuture(handler.answer().apply(request)));
  }

  /**
   * The next call of {@code address} waits until {@link #release} before it is answered as usual. The future
   * completes when that call has arrived and is held.
   */
  public Future<Void> holdNext(String address) {
    Promise<Void> reached = Promise.promise();
    Promise<Void> gate = Promise.promise();
    return plan(address, 1, () -> {
      held.add(gate);
      reached.complete();
      return gate.future();
    }).compose(v -> reached.future());
  }

  /** Lets the oldest held call go on to its answer. */
  public Future<Void> release() {
    return onLoop(() -> {
      held.poll().complete();
      return null;
    });
  }

  /** Every request received so far, oldest first, including those that were failed or held. */
  public Future<List<Request>> requests() {
    return onLoop(() -> List.copyOf(requests));
  }

  /** How many requests {@code address} received, so a test can say "storage was asked once". */
  public Future<Integer> calls(String address) {
    return onLoop(() -> (int) requests.stream().filter(r -> r.address().equals(address)).count());
  }

  /** The next {@code times} calls of {@code address} are answered as usual: what is planned after them meets later calls. */
  public Future<Void> passNext(String address, int times) {
    return plan(address, times, Future::succeededFuture);
  }

  /** The next {@code times} calls of {@code address} fail with {@code failure}, as the real service would. */
  public Future<Void> failNext(String address, int times, QuarryException failure) {
    return plan(address, times, () -> Future.failedFuture(failure));
  }

  /** The next {@code times} calls of {@code address} are never answered: their callers time out. */
  public Future<Void> hangNext(String address, int times) {
    return plan(address, times, () -> Promise.promise().future());
  }

  private Future<Void> plan(String address, int times, Supplier<Future<?>> outcome) {
    return onLoop(() -> {
      Deque<Supplier<Future<?>>> next = planned.computeIfAbsent(address, a -> new ArrayDeque<>());
      for (int i = 0; i < times; i++) {
        next.add(outcome);
      }
      return null;
    });
  }

  /** Unbinds every address. */
  public Future<Void> close() {
    return vertx.undeploy(deploymentID());
  }

  /** Runs {@code action} on this fake's event loop, where its state may be touched. */
  protected <T> Future<T> onLoop(Supplier<T> action) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> {
      try {
        done.complete(action.get());
      } catch (RuntimeException e) {
        done.fail(e);
      }
    });
    return done.future();
  }
}
