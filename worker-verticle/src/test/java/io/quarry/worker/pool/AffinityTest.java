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

  private final Affinity affinity = new Affinity();

  private int slotFor(QueryRequest query) {
    return affinity.choose(members, query).orElseThrow().slot();
  }

  /** The slot a fresh placement, which remembers nothing, gives this conversation's work among {@code open}. */
  private static int firstChoice(List<Member> open, String conversation) {
    return new Affinity().choose(open, inConversation(conversation, "https://a.example/flights.parquet")).orElseThrow()
        .slot();
  }

  /** Conversations that, remembered nowhere, would go to the second of two processes. */
  private List<String> drawnToSecond(int count) {
    List<Member> two = members.subList(0, 2);
    return IntStream.iterate(0, c -> c + 1).mapToObj(c -> "conversation-" + c)
        .filter(c -> firstChoice(two, c) == two.get(1).slot()).limit(count).toList();
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
    int second = affinity.choose(others, query).orElseThrow().slot();
    assertThat(second).isNotEqualTo(first);
    assertThat(affinity.choose(others, inConversation("c", "https://b.example/cars.parquet")).orElseThrow().slot())
        .isEqualTo(second);
  }

  @Test
  @DisplayName("a process that becomes ready later draws no conversation away from the process its copies are on")
  void laterProcessDrawsNothing() {
    List<Member> firstOnly = members.subList(0, 1);
    List<Member> two = members.subList(0, 2);
    for (String conversation : drawnToSecond(20)) {
      QueryRequest query = inConversation(conversation, "https://a.example/flights.parquet");
      assertThat(affinity.choose(firstOnly, query).orElseThrow().slot()).isEqualTo(1);
      assertThat(affinity.choose(two, query).orElseThrow().slot()).as(conversation).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("where work last ran is remembered for the last " + Affinity.REMEMBERED + " keys placed: the one before"
      + " them goes by its order again")
  void remembersTheLastKeys() {
    List<Member> firstOnly = members.subList(0, 1);
    List<Member> two = members.subList(0, 2);
    List<String> conversations = drawnToSecond(Affinity.REMEMBERED + 1);
    conversations.forEach(c -> affinity.choose(firstOnly, inConversation(c, "https://a.example/flights.parquet")));
    String forgotten = conversations.get(0);
    String oldestRemembered = conversations.get(1);
    assertThat(affinity.choose(two, inConversation(oldestRemembered, "https://b.example/cars.parquet")).orElseThrow()
        .slot()).isEqualTo(1);
    assertThat(affinity.choose(two, inConversation(forgotten, "https://b.example/cars.parquet")).orElseThrow().slot())
        .isEqualTo(2);
  }
}
