package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WaitingLineTest {

  final AtomicLong clock = new AtomicLong(1_000_000);
  final WaitingLine<String> line = new WaitingLine<>(clock::get);

  @Test
  @DisplayName("none is given up in its grace; past it, the oldest of the address with the most waiting")
  void grace() {
    line.add("flood-1", "10.0.0.1");
    line.add("flood-2", "10.0.0.1");
    line.add("other", "10.0.0.2");
    clock.addAndGet(WaitingLine.GRACE_MS - 1);
    assertThat(line.giveUp()).isNull();
    clock.addAndGet(1);
    assertThat(line.giveUp()).isEqualTo("flood-1");
    assertThat(line.giveUp()).as("both addresses wait one each now: either may give way").isNotNull();
  }

  @Test
  @DisplayName("a loop whose timer ran late stretches the grace by as much, until a timer runs on time")
  void lateLoop() {
    long due = line.due(WaitingLine.GRACE_MS);
    clock.addAndGet(WaitingLine.GRACE_MS + 700);
    line.timerRan(due);
    line.add("newcomer", "127.0.0.1");
    clock.addAndGet(WaitingLine.GRACE_MS + 699);
    assertThat(line.giveUp()).as("its first bytes may not have been read yet").isNull();
    clock.addAndGet(1);
    assertThat(line.giveUp()).isEqualTo("newcomer");
    line.add("next", "127.0.0.1");
    line.timerRan(line.due(0));
    clock.addAndGet(WaitingLine.GRACE_MS);
    assertThat(line.giveUp()).as("the loop is on time again").isEqualTo("next");
  }
}
