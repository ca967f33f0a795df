package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeInfoTest {

  @Test
  @DisplayName("a node travels in its roles' config and in the map of live nodes unchanged")
  void roundTrip() {
    NodeInfo node = new NodeInfo("n1", "1.2.3", List.of("web", "llm"));
    assertThat(NodeInfo.of(node.into(new JsonObject().put("port", 8080)))).isEqualTo(node);
    assertThat(NodeInfo.fromJson(new JsonObject(node.toJson().encode()))).isEqualTo(node);
  }

  @Test
  @DisplayName("a role deployed without a node (a test) runs as the local node")
  void withoutNode() {
    assertThat(NodeInfo.of(new JsonObject())).isEqualTo(NodeInfo.LOCAL);
    assertThat(NodeInfo.fromJson(new JsonObject().put("id", "n2")).roles()).isEmpty();
  }

  @Test
  @DisplayName("credentials carry the user and the password hash, nothing read by raw key")
  void credentials() {
    Credentials found = new Credentials(new User("u1", "a@example.com", "2026-01-01T00:00:00Z"), "hash");
    assertThat(Credentials.fromJson(new JsonObject(found.toJson().encode()))).isEqualTo(found);
  }
}
