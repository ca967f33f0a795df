// A dataset URL as the page shows it: each credential's value is [redacted] (signed S3, GCS and Azure links, token=,
// key=..., user:pass@), as the server shows it (io.quarry.bus.UrlSecrets, whose list this one follows). A link the
// user typed is shown so in its "Not added" card too, and matched with the server's form of it.
const SECRET_PARAMS = new Set(['x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'signature',
  'awsaccesskeyid', 'x-goog-signature', 'x-goog-credential', 'googleaccessid', 'sig', 'token', 'access_token',
  'id_token', 'refresh_token', 'key', 'api_key', 'apikey', 'api-key', 'client_secret', 'password', 'secret', 'auth']);

function decoded(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function shownQuery(query) {
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const secret = eq >= 0 && eq < pair.length - 1 && SECRET_PARAMS.has(decoded(pair.slice(0, eq)).toLowerCase());
    return secret ? `${pair.slice(0, eq + 1)}[redacted]` : pair;
  }).join('&');
}

export function shownUrl(url) {
  if (typeof url !== 'string') return url;
  const [beforeHash, ...hash] = url.split('#');
  const mark = beforeHash.indexOf('?');
  let head = mark < 0 ? beforeHash : beforeHash.slice(0, mark);
  const query = mark < 0 ? null : beforeHash.slice(mark + 1);
  head = head.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)[^/@]*@/i, '$1[redacted]@');
  return head + (query === null ? '' : `?${shownQuery(query)}`) + (hash.length ? `#${hash.join('#')}` : '');
}
