package io.quarry.bus.net;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A URL as the server it names reads it: its path percent-decoded and its dot segments resolved. A trusted prefix is
 * compared with this, never with the URL as written: {@code /samples/%2e%2e/api/health} starts with {@code /samples/}
 * but asks for {@code /api/health}. A path that servers may read in more than one way has no normal form, and so is
 * trusted under no prefix: an encoded slash or backslash (a separator to one server, a character to another), a
 * {@code %} left after decoding (a server that decodes twice), a {@code ;} (path parameters, which some servers drop:
 * {@code ..;/}), an empty segment ({@code //}, which some merge before resolving {@code ..}), a control character, a
 * malformed escape or invalid UTF-8, a {@code ..} above the root.
 */
final class NormalUrl {

  private NormalUrl() {
  }

  /** {@code scheme://authority/path}, scheme and authority in lower case, without query or fragment; or empty. */
  static Optional<String> of(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
    if (uri.isOpaque() || uri.getScheme() == null || uri.getRawAuthority() == null) {
      return Optional.empty();
    }
    return path(uri.getRawPath()).map(path -> uri.getScheme().toLowerCase(Locale.ROOT) + "://"
        + uri.getRawAuthority().toLowerCase(Locale.ROOT) + path);
  }

  /** RFC 3986's remove_dot_segments on the decoded segments; a trailing {@code /}, {@code .} or {@code ..} ends in /. */
  static Optional<String> path(String raw) {
    if (raw == null || raw.isEmpty()) {
      return Optional.of("/");
    }
    String[] segments = raw.split("/", -1);
    List<String> kept = new ArrayList<>();
    boolean directory = false;
    for (int i = 1; i < segments.length; i++) {
      boolean last = i == segments.length - 1;
      Optional<String> decoded = segments[i].isEmpty() && !last ? Optional.empty() : decode(segments[i]);
      if (decoded.isEmpty()) {
        return Optional.empty();
      }
      String segment = decoded.get();
      directory = segment.isEmpty() || segment.equals(".") || segment.equals("..");
      if (segment.equals("..")) {
        if (kept.isEmpty()) {
          return Optional.empty();
        }
        kept.remove(kept.size() - 1);
      } else if (!directory) {
        kept.add(segment);
      }
    }
    String path = "/" + String.join("/", kept);
    return Optional.of(directory && !kept.isEmpty() ? path + "/" : path);
  }

  /** One segment, decoded; empty when it is malformed or holds what servers read in different ways. */
  private static Optional<String> decode(String segment) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = 0;
    while (i < segment.length()) {
      int c = segment.codePointAt(i);
      if (c != '%') {
        bytes.writeBytes(Character.toString(c).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(c);
      } else if (i + 2 < segment.length() && HexFormat.isHexDigit(segment.charAt(i + 1))
          && HexFormat.isHexDigit(segment.charAt(i + 2))) {
        bytes.write(HexFormat.fromHexDigits(segment, i + 1, i + 3));
        i += 3;
      } else {
        return Optional.empty();
      }
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
    boolean ambiguous = text.chars().anyMatch(c -> c == '/' || c == '\\' || c == '%' || c == ';' || c < 0x20 || c == 0x7f);
    return ambiguous ? Optional.empty() : Optional.of(text);
  }
}
