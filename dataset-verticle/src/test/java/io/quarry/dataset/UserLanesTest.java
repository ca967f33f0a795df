package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The red team's flood: one user's queries wait in that user's lane while another user's run at once. */
class UserLanesTest {

  final UserLanes lanes = new UserLanes(2, 3);
  final List<String> started = new ArrayList<>();
  final List<Promise<String>> running = new ArrayList<>();

  private Future<String> submit(String user, String name) {
    return lanes.submit(user, name, () -> {
      started.add(name);
      Promise<String> query = Promise.promise();
      running.add(query);
      return query.future();
    });
  }

  @Test
  @DisplayName("2 run, the next 3 wait in order, the 6th is refused; another user's query starts at once")
  void flood() {
    List<Future<String>> ann = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      ann.add(submit("ann", "ann-" + i));
    }
    assertThat(started).containsExactly("ann-1", "ann-2");
    assertThat(ann.get(5).failed()).isTrue();
    assertThat(ann.get(5).cause()).hasMessage(UserLanes.FULL);
    assertThat(lanes.load("ann")).isEqualTo(5);

    Future<String> bob = submit("bob", "bob-1");
    assertThat(started).containsExactly("ann-1", "ann-2", "bob-1");

    running.get(1).complete("two");
    assertThat(ann.get(1).result()).isEqualTo("two");
    assertThat(started).endsWith("ann-3");
    running.get(0).fail("broken");
    assertThat(started).endsWith("ann-4");
    running.get(2).complete("bob's");
    assertThat(bob.result()).isEqualTo("bob's");
    for (int i = 3; i < running.size(); i++) {
      running.get(i).tryComplete("done");
    }
    assertThat(started).containsExactly("ann-1", "ann-2", "bob-1", "ann-3", "ann-4", "ann-5");
    running.forEach(p -> p.tryComplete("done"));
    assertThat(ann.subList(0, 5)).allMatch(Future::isComplete);
    assertThat(lanes.load("ann")).isZero();
    assertThat(lanes.load("bob")).isZero();
  }

  @Test
  @DisplayName("a query that throws instead of failing its future frees its place in the lane")
  void throwingQuery() {
    Future<String> thrown = lanes.submit("ann", "thrown", () -> {
      throw new IllegalStateException("bad");
    });
    assertThat(thrown.failed()).isTrue();
    assertThat(lanes.load("ann")).isZero();
  }

  @Test
  @DisplayName("a query delivered again (a member left) joins the one in the lane with its id: 2 running and 3 waiting"
      + " delivered three times each take 5 places, run once each, and each delivery gets its query's answer; a sixth"
      + " query is still refused")
  void deliveredAgain() {
    List<Future<String>> first = new ArrayList<>();
    List<Future<String>> again = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      first.add(submit("ann", "ann-" + i));
    }
    for (int delivery = 0; delivery < 2; delivery++) {
      for (int i = 1; i <= 5; i++) {
        again.add(submit("ann", "ann-" + i));
      }
    }
    assertThat(again).noneMatch(Future::failed);
    assertThat(lanes.load("ann")).isEqualTo(5);
    assertThat(submit("ann", "ann-6").cause()).hasMessage(UserLanes.FULL);
    for (int i = 0; i < 5; i++) {
      running.get(i).complete("answer " + (i + 1));
    }
    assertThat(started).containsExactly("ann-1", "ann-2", "ann-3", "ann-4", "ann-5");
    for (int i = 0; i < again.size(); i++) {
      assertThat(again.get(i).result()).isEqualTo(first.get(i % 5).result());
    }
    assertThat(submit("ann", "ann-1").isComplete()).as("a new delivery once its query ended runs it anew").isFalse();
  }
}
