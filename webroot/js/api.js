// The REST API: every path the page calls is named once, here. JSON in and out: a failure throws an ApiError carrying
// the server's message, or, when the request never got an answer, an Unreachable saying so in plain words (the
// browser's own text is "Failed to fetch").
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

/** A fetch whose failure to get an answer at all says so in plain words; the response is the caller's to read. */
async function fetchFile(path) {
  try {
    return await fetch(path);
  } catch {
    throw new Unreachable();
  }
}

const get = (path) => request('GET', path);
const post = (path, body = {}) => request('POST', path, body);
const patch = (path, body) => request('PATCH', path, body);
const del = (path) => request('DELETE', path);

const conversationPath = (id) => `/api/conversations/${id}`;
const datasetsPath = (conversationId) => `${conversationPath(conversationId)}/datasets`;
const boardPath = (id) => `/api/boards/${encodeURIComponent(id)}`;
const tilePath = (boardId, tileId) => `${boardPath(boardId)}/tiles/${encodeURIComponent(tileId)}`;
const resultPath = (id) => `/api/results/${encodeURIComponent(id)}`;

/** Every path of the REST API the page calls, one function a call. */
export const api = {
  me: () => get('/api/me'),
  signIn: (credentials) => post('/api/auth/signin', credentials),
  signUp: (account) => post('/api/auth/signup', account),
  signOut: () => post('/api/auth/signout'),
  usage: () => get('/api/usage'),
  /** The user's API tokens, never the tokens themselves: {tokens: [{id, name, scope, created_at, ...}]} */
  tokens: () => get('/api/tokens'),
  /** @param token {name, scope, expires_in_days}: answers {id, token, ...}, the token this once */
  createToken: (token) => post('/api/tokens', token),
  revokeToken: (id) => del(`/api/tokens/${encodeURIComponent(id)}`),
  /** The user's share links, never their tokens: {shares: [{id, kind, title, audience, status, ...}]} */
  shares: () => get('/api/shares'),
  /**
   * @param share {conversation_id, message_id?} or {board_id}, with {audience, display_name, expires_in_days}:
   *              {id, url, token, ...}
   */
  createShare: (share) => post('/api/shares', share),
  revokeShare: (id) => del(`/api/shares/${encodeURIComponent(id)}`),
  samples: () => get('/api/samples'),
  /** {schedules: [...]}: the user's scheduled questions */
  schedules: () => get('/api/schedules'),
  /** @param schedule {result_id, every, at, weekday, time_zone, webhook_url}: answers it, webhook_secret this once */
  createSchedule: (schedule) => post('/api/schedules', schedule),
  pauseSchedule: (id, paused) => patch(`/api/schedules/${encodeURIComponent(id)}`, { paused }),
  deleteSchedule: (id) => del(`/api/schedules/${encodeURIComponent(id)}`),

  conversations: () => get('/api/conversations'),
  searchConversations: (query) => get(`/api/conversations?q=${encodeURIComponent(query)}`),
  createConversation: () => post('/api/conversations', {}),
  /** {conversation, messages, runs, datasets} */
  conversation: (id) => get(conversationPath(id)),
  renameConversation: (id, title) => patch(conversationPath(id), { title }),
  deleteConversation: (id) => del(conversationPath(id)),
  /** A question; the answer comes over the event socket. */
  sendMessage: (conversationId, content) => post(`${conversationPath(conversationId)}/messages`, { content }),
  /** Continues an answer cut off at the model's output limit; the rest streams under the same message id. */
  /** The model's next questions for an answer (only where chat.followUps=model): {questions: [...]} */
  followUps: (conversationId, messageId) => post(
    `${conversationPath(conversationId)}/messages/${encodeURIComponent(messageId)}/follow-ups`),
  continueAnswer: (conversationId, messageId) => post(
    `${conversationPath(conversationId)}/messages/${encodeURIComponent(messageId)}/continue`),
  stop: (conversationId) => post(`${conversationPath(conversationId)}/stop`),
  /** @param run {sql, origin, message_id}: a run with an origin is stored as the user's own */
  query: (conversationId, run) => post(`${conversationPath(conversationId)}/query`, run),

  addDataset: (conversationId, url) => post(datasetsPath(conversationId), { url }),
  renameDataset: (conversationId, id, name) => patch(`${datasetsPath(conversationId)}/${id}`, { name }),
  refreshDataset: (conversationId, id) => post(`${datasetsPath(conversationId)}/${id}/refresh`),
  removeDataset: (conversationId, id) => del(`${datasetsPath(conversationId)}/${id}`),
  /** The dataset's column profile; with top, that column's most frequent values and histogram too. */
  datasetProfile: (conversationId, id, top) => get(`${datasetsPath(conversationId)}/${id}/profile`
    + (top ? `?top=${encodeURIComponent(top)}` : '')),
  /** Whether the datasets' files changed since they were read: {changed, datasets}. */
  checkDatasetVersions: (conversationId) => post(`${datasetsPath(conversationId)}/versions`),

  /** {boards: [{id, title, tiles, created_at, updated_at}]}, newest first */
  boards: () => get('/api/boards'),
  createBoard: (title) => post('/api/boards', { title }),
  /** {board, tiles}: each tile with its stored copy; runs nothing */
  board: (id) => get(boardPath(id)),
  renameBoard: (id, title) => patch(boardPath(id), { title }),
  deleteBoard: (id) => del(boardPath(id)),
  /** @param tile {result_id, kind: 'chart'|'table', chart: its spec (a chart's), title}: the server copies the rows */
  pinTile: (boardId, tile) => post(`${boardPath(boardId)}/tiles`, tile),
  unpinTile: (boardId, tileId) => del(tilePath(boardId, tileId)),
  /** Every tile id of the board, in the new order: {board, tiles} */
  reorderTiles: (boardId, tileIds) => request('PUT', `${boardPath(boardId)}/order`, { tile_ids: tileIds }),
  /** The tile's SQL run again: the tile as it is now */
  runTile: (boardId, tileId) => post(`${tilePath(boardId, tileId)}/run`),
  /** {runs: [{tile_id, ok, error, tile}]} */
  runBoard: (boardId) => post(`${boardPath(boardId)}/run`),
  /** Whether each tile's files have newer versions, no query run: {tiles: [{tile_id, stale, reason}]} */
  boardStaleness: (boardId) => get(`${boardPath(boardId)}/stale`),

  result: (id) => get(resultPath(id)),
  /** A chart of every row of the result, as spec asks: {spec, columns, rows, shows}. */
  chartData: (id, spec) => post(`${resultPath(id)}/chart`, spec),
  /**
   * The whole result as a file, its query run again on the same data: the Response, whatever its status.
   * @param sort {column, ascending}, or null for the result's own order
   */
  exportResult: (id, format, sort) => fetchFile(`${resultPath(id)}/export?format=${format}`
    + (sort ? `&sort=${encodeURIComponent(sort.column)}&dir=${sort.ascending ? 'asc' : 'desc'}` : '')),
};
