// The REST API: JSON in and out. A failure throws an ApiError carrying the server's message, or, when the request
// never got an answer, an Unreachable saying so in plain words (the browser's own text is "Failed to fetch").
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error || `HTTP ${status}`);
    this.status = status;
    this.details = body?.details;
    this.body = body || {};
  }
}

export class Unreachable extends Error {
  constructor() {
    super('Quarry cannot be reached');
  }
}

function parse(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null; // not ours (a proxy's error page): the status says what happened
  }
}

async function request(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  let text;
  try {
    response = await fetch(path, options);
    text = await response.text();
  } catch {
    throw new Unreachable();
  }
  const json = parse(text);
  if (!response.ok) {
    throw new ApiError(response.status, json);
  }
  return json;
}

export const api = {
  get: (path) => request('GET', path),
  post: (path, body = {}) => request('POST', path, body),
  patch: (path, body) => request('PATCH', path, body),
  del: (path) => request('DELETE', path),
};
