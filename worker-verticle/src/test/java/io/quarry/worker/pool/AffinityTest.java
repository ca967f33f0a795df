package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.QueryRequest;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Which of a node's worker processes takes a query: a conversation's work stays on one process whatever files it adds,
 * so the copy an add's check starts is the one its queries read; work for no conversation goes by its files.
 */
class AffinityTest {

  private final List<Member> members = IntStream.rangeClosed(1, 4)
      .<Member>mapToObj(PlacementTest.FakeMember::new).toList();

  private static QueryRequest inConversation(String conversationId, String... urls) {
    Map<String, String> tables = new LinkedHashMap<>();
    for (int i = 0; i < urls.length; i++) {
      tables.put("t" + i, urls[i]);
    }
    return new QueryRequest("SELECT 1", tables, 1_000, "", conversationId);
  }

  private int slotFor(QueryRequest query) {
    return Affinity.choose(members, query).orElseThrow().slot();
  }

  @Test
  @DisplayName("an add's check (its one file) and the conversation's queries over all its files go to the same process, "
      + "for every conversation")
  void conversationStaysPut() {
    for (int c = 0; c < 200; c++) {
      String conversation = "conversation-" + c;
      int checkOfFirst = slotFor(inConversation(conversation, "https://a.example/flights.parquet"));
      int checkOfSecond = slotFor(inConversation(conversation, "https://b.example/cars.parquet"));
      int queryOverBoth = slotFor(inConversation(conversation, "https://a.example/flights.parquet",
          "https://b.example/cars.parquet"));
      assertThat(List.of(checkOfSecond, queryOverBoth)).as(conversation).containsOnly(checkOfFirst);
    }
  }

  @Test
  @DisplayName("conversations spread over all the processes")
  void conversationsSpread() {
    Set<Integer> used = new HashSet<>();
    for (int c = 0; c < 200; c++) {
      used.add(slotFor(inConversation("conversation-" + c, "https://a.example/flights.parquet")));
    }
    assertThat(used).containsExactlyInAnyOrder(1, 2, 3, 4);
  }

  @Test
  @DisplayName("work for no conversation goes by its set of URLs, in whatever order its tables name them")
  void noConversationByFiles() {
    Set<Integer> used = new HashSet<>();
    for (int f = 0; f < 200; f++) {
      String one = "https://a.example/" + f + ".parquet";
      String other = "https://b.example/" + f + ".parquet";
      int forward = slotFor(inConversation("", one, other));
      assertThat(slotFor(inConversation("", other, one))).isEqualTo(forward);
      used.add(forward);
    }
    assertThat(used).hasSize(4);
  }

  @Test
  @DisplayName("a process without room is passed over for the next in the same order")
  void nextWithRoom() {
    QueryRequest query = inConversation("c", "https://a.example/flights.parquet");
    int first = slotFor(query);
    List<Member> others = members.stream().filter(m -> m.slot() != first).toList();
    int second = Affinity.choose(others, query).orElseThrow().slot();
    assertThat(second).isNotEqualTo(first);
    assertThat(Affinity.choose(others, inConversation("c", "https://b.example/cars.parquet")).orElseThrow().slot())
        .isEqualTo(second);
  }
}
