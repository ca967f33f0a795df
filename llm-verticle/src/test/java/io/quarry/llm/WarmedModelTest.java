package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WarmedModelTest {

  /** The provider's side: which requests reached it, each answered (or cancelled) when the test says. */
  private static final class Provider implements Model {
    final List<ModelResponse> asked = new ArrayList<>();
    final List<Promise<Void>> answers = new ArrayList<>();
    final List<Boolean> cancelled = new ArrayList<>();

    @Override
    public Call stream(ModelRequest request, ModelResponse into) {
      asked.add(into);
      Promise<Void> answer = Promise.promise();
      answers.add(answer);
      cancelled.add(false);
      int index = answers.size() - 1;
      return new Call() {
        @Override
        public Future<Void> done() {
          return answer.future();
        }

        @Override
        public void cancel() {
          cancelled.set(index, true);
          answer.tryFail(new IllegalStateException("cancelled"));
        }
      };
    }

    @Override
    public String speaker() {
      return "Gemini";
    }

    @Override
    public String id() {
      return "gemini-2.5-flash";
    }

    @Override
    public String provider() {
      return ModelSettings.GEMINI;
    }

    @Override
    public Future<Void> close() {
      return Future.succeededFuture();
    }
  }

  private final Provider provider = new Provider();
  private final Promise<Void> warmUp = Promise.promise();
  /** How many times the warm-up was begun. */
  private int begun;
  private final WarmedModel model = new WarmedModel(provider, () -> {
    begun++;
    return warmUp.future();
  });
  private final ModelResponse response = new ModelResponse(text -> { });

  @Test
  @DisplayName("a request made while the SDK warms up reaches the provider once the warm-up ends, and ends with it")
  void waitsForTheWarmUp() {
    Model.Call call = model.stream(null, response);
    assertThat(provider.asked).isEmpty();

    warmUp.complete();
    assertThat(provider.asked).containsExactly(response);
    assertThat(call.done().isComplete()).isFalse();

    provider.answers.get(0).complete();
    assertThat(call.done().succeeded()).isTrue();
  }

  @Test
  @DisplayName("the warm-up is begun once: by the node's start, or by the first request when that comes first, and"
      + " never by the model's making")
  void begunOnce() {
    assertThat(begun).isZero();
    model.stream(null, response);
    model.stream(null, response);
    assertThat(model.warmUp()).isSameAs(warmUp.future());
    assertThat(begun).isOne();

    warmUp.complete();
    assertThat(provider.asked).containsExactly(response, response);
  }

  @Test
  @DisplayName("a warm-up that failed still lets the request go: the SDK then warms up on first use, as without one")
  void failedWarmUpStillAsks() {
    Model.Call call = model.stream(null, response);
    warmUp.fail(new IllegalStateException("no class"));

    assertThat(provider.asked).containsExactly(response);
    provider.answers.get(0).fail(new IllegalStateException("429"));
    assertThat(call.done().cause()).hasMessage("429");
  }

  @Test
  @DisplayName("a request stopped while it waits is cancelled as it starts, and ends as a cancelled one does")
  void stoppedWhileWaiting() {
    Model.Call call = model.stream(null, response);
    call.cancel();
    assertThat(provider.asked).isEmpty();

    warmUp.complete();
    assertThat(provider.cancelled).containsExactly(true);
    assertThat(call.done().cause()).hasMessage("cancelled");
  }

  @Test
  @DisplayName("once warm, a request goes straight to the provider and its call is the provider's own")
  void warmGoesStraight() {
    model.warmUp();
    warmUp.complete();
    Model.Call call = model.stream(null, response);

    assertThat(provider.asked).containsExactly(response);
    call.cancel();
    assertThat(provider.cancelled).containsExactly(true);
    assertThat(model.speaker()).isEqualTo("Gemini");
    assertThat(model.provider()).isEqualTo(ModelSettings.GEMINI);
  }
}
