package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WaitingQueriesTest {

  private static List<String> pollAll(WaitingQueries<String> waiting) {
    List<String> order = new ArrayList<>();
    for (String next = waiting.poll(); next != null; next = waiting.poll()) {
      order.add(next);
    }
    return order;
  }

  @Test
  @DisplayName("users are served in turn: one user's burst of five waits behind another user's single query")
  void usersTakeTurns() {
    WaitingQueries<String> waiting = new WaitingQueries<>(10);
    for (int i = 1; i <= 5; i++) {
      waiting.offer("alice", "a" + i);
    }
    waiting.offer("bob", "b1");
    waiting.offer("carol", "c1");
    waiting.offer("bob", "b2");

    assertThat(pollAll(waiting)).containsExactly("a1", "b1", "c1", "a2", "b2", "a3", "a4", "a5");
    assertThat(waiting.isEmpty()).isTrue();
  }

  @Test
  @DisplayName("a query taken out of turn (the first a member can take): its user goes to the back of the line, the "
      + "users passed over keep their places and their own order")
  void firstEligible() {
    WaitingQueries<String> waiting = new WaitingQueries<>(10);
    waiting.offer("alice", "a1");
    waiting.offer("bob", "b1");
    waiting.offer("alice", "a2");
    waiting.offer("carol", "c1");

    assertThat(waiting.peek()).isEqualTo("a1");
    assertThat(waiting.pollFirst(q -> q.equals("a2") || q.equals("c1"))).isEqualTo("a2");
    assertThat(waiting.peek()).as("alice's turn passed").isEqualTo("b1");
    assertThat(waiting.pollFirst(q -> q.equals("nothing"))).isNull();
    assertThat(waiting.size()).isEqualTo(3);
    assertThat(pollAll(waiting)).containsExactly("b1", "c1", "a1");
  }

  @Test
  @DisplayName("a query that lost its turn (its worker died under it) goes ahead of every other, even past the "
      + "capacity; its user then goes to the back of the line")
  void lostTurnGoesFirst() {
    WaitingQueries<String> waiting = new WaitingQueries<>(3);
    waiting.offer("alice", "a1");
    waiting.offer("bob", "b1");
    waiting.offer("carol", "c1");

    waiting.addFirst("carol", "c0");

    assertThat(waiting.size()).isEqualTo(4);
    assertThat(pollAll(waiting)).containsExactly("c0", "a1", "b1", "c1");
  }

  @Test
  @DisplayName("the node holds exactly its capacity: the query at the limit waits, the one past it is refused")
  void capacity() {
    WaitingQueries<String> waiting = new WaitingQueries<>(3);
    assertThat(waiting.offer("alice", "a1")).isTrue();
    assertThat(waiting.offer("bob", "b1")).isTrue();
    assertThat(waiting.offer("alice", "a2")).as("the third, at the limit").isTrue();
    assertThat(waiting.offer("carol", "c1")).as("the fourth, past it").isFalse();
    assertThat(waiting.size()).isEqualTo(3);
    waiting.poll();
    assertThat(waiting.offer("carol", "c1")).as("once one has left").isTrue();
  }

  @Test
  @DisplayName("a query that stops waiting leaves its line; a user whose line empties loses its turn")
  void remove() {
    WaitingQueries<String> waiting = new WaitingQueries<>(10);
    waiting.offer("alice", "a1");
    waiting.offer("bob", "b1");
    waiting.offer("alice", "a2");

    assertThat(waiting.remove("bob", "b1")).isTrue();
    assertThat(waiting.remove("bob", "b1")).as("already gone").isFalse();
    assertThat(waiting.size()).isEqualTo(2);
    assertThat(pollAll(waiting)).containsExactly("a1", "a2");
  }

  @Test
  @DisplayName("drain hands back every waiting query and leaves the line empty")
  void drain() {
    WaitingQueries<String> waiting = new WaitingQueries<>(10);
    waiting.offer("alice", "a1");
    waiting.offer("bob", "b1");
    assertThat(waiting.drain()).containsExactlyInAnyOrder("a1", "b1");
    assertThat(waiting.isEmpty()).isTrue();
    assertThat(waiting.poll()).isNull();
  }
}
