package io.quarry.chat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;

/** A download's file name, from its conversation's title. */
final class FileNames {

  static final int MAX_STEM = 60;
  static final String FALLBACK = "quarry-result";

  private FileNames() {
  }

  /**
   * {@code attachment} with the title as an ASCII slug every browser takes ({@code filename}) and, when the title is
   * not plain ASCII, as itself for those that read RFC 6266's {@code filename*}.
   */
  static String attachment(String title, String extension) {
    String slug = slug(title);
    String header = "attachment; filename=\"" + slug + "." + extension + "\"";
    String stem = title == null ? "" : title.strip();
    if (stem.isEmpty() || stem.chars().allMatch(c -> c < 128)) {
      return header;
    }
    String cut = stem.codePointCount(0, stem.length()) > MAX_STEM
        ? stem.substring(0, stem.offsetByCodePoints(0, MAX_STEM)) : stem;
    String encoded = URLEncoder.encode(cut.replaceAll("[\\p{Cntrl}/\\\\]", " ") + "." + extension,
        StandardCharsets.UTF_8).replace("+", "%20");
    return header + "; filename*=UTF-8''" + encoded;
  }

  /** Lower-case letters and digits joined by single dashes, accents dropped, at most {@link #MAX_STEM} long. */
  static String slug(String title) {
    String plain = Normalizer.normalize(title == null ? "" : title, Normalizer.Form.NFKD)
        .replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT);
    String slug = plain.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (slug.length() > MAX_STEM) {
      slug = slug.substring(0, MAX_STEM).replaceAll("-+$", "");
    }
    return slug.isEmpty() ? FALLBACK : slug;
  }
}
