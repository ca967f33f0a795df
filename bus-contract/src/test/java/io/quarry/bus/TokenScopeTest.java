package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TokenScopeTest {

  @Test
  @DisplayName("every public operation needs a scope: reads read, turns chat, the rest query")
  void everyOperation() {
    List<String> reads = ApiOps.ALL.stream().map(Operation::address)
        .filter(a -> TokenScope.neededFor(a) == TokenScope.READ).toList();
    assertThat(reads).containsExactlyInAnyOrder("api.user.local", "api.user.find", "api.conversation.list",
        "api.conversation.get", "api.dataset.list", "api.dataset.profile", "api.result.get", "api.usage.get", "api.ping",
        "api.share.list", "api.board.list", "api.board.get", "api.board.stale",
        "api.schedule.list", "api.schedule.runs");
    assertThat(TokenScope.neededFor("api.board.pin")).isEqualTo(TokenScope.QUERY);
    assertThat(TokenScope.neededFor("api.board.run")).isEqualTo(TokenScope.QUERY);
    assertThat(ApiOps.ALL.stream().map(Operation::address).filter(a -> TokenScope.neededFor(a) == TokenScope.CHAT))
        .containsExactlyInAnyOrder("api.turn.start", "api.turn.continue", "api.turn.stop",
            "api.turn.follow_ups");
    assertThat(TokenScope.neededFor("api.query.run")).isEqualTo(TokenScope.QUERY);
    assertThat(TokenScope.neededFor("api.dataset.add")).isEqualTo(TokenScope.QUERY);
    assertThat(TokenScope.neededFor("api.share.create")).isEqualTo(TokenScope.QUERY);
    assertThat(TokenScope.neededFor("api.share.revoke")).isEqualTo(TokenScope.QUERY);
    assertThat(TokenScope.neededFor("api.schedule.create")).isEqualTo(TokenScope.QUERY);
    assertThat(TokenScope.neededFor("api.schedule.pause")).isEqualTo(TokenScope.QUERY);
  }

  @Test
  @DisplayName("each scope allows itself and those below it; an unknown one is refused naming the three")
  void order() {
    assertThat(TokenScope.CHAT.allows(TokenScope.QUERY)).isTrue();
    assertThat(TokenScope.QUERY.allows(TokenScope.READ)).isTrue();
    assertThat(TokenScope.READ.allows(TokenScope.QUERY)).isFalse();
    assertThat(TokenScope.QUERY.allows(TokenScope.CHAT)).isFalse();
    assertThat(TokenScope.of("query")).isEqualTo(TokenScope.QUERY);
    assertThatThrownBy(() -> TokenScope.of("admin")).hasMessage("Unknown scope 'admin': read, query or chat");
  }
}
