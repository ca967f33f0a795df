// A client of Quarry's event-bus bridge written as a Node.js developer would, from docs/bus-api.md alone: no JVM, no
// library, the TCP bridge protocol (4-byte big-endian length, then a JSON object) over node:net.
// In: BRIDGE_PORT, BRIDGE_TOKEN, DATASET_URL, QUESTION, OTHER_CONVERSATION, OTHER_USER_ID.
// Out: one line of JSON on stdout with what each step answered.
import net from 'node:net';

const env = process.env;
const deadline = setTimeout(() => { console.error('timed out'); process.exit(1); }, 60_000);

class Bridge {
  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.pending = new Map();
    this.handlers = new Map();
    this.refusals = [];
    this.waiting = [];
    this.next = 0;
    this.closed = new Promise(resolve => socket.on('close', resolve));
    socket.on('data', chunk => this.read(chunk));
  }

  static connect(port) {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => resolve(new Bridge(socket)));
      socket.on('error', reject);
    });
  }

  read(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0);
      if (this.buffer.length < 4 + length) return;
      const frame = JSON.parse(this.buffer.subarray(4, 4 + length).toString('utf8'));
      this.buffer = this.buffer.subarray(4 + length);
      this.frame(frame);
    }
  }

  frame(frame) {
    const pending = this.pending.get(frame.address);
    if (pending) {
      this.pending.delete(frame.address);
      if (frame.type === 'message') pending.resolve(frame.body); else pending.reject(frame);
    } else if (frame.type === 'message' && this.handlers.has(frame.address)) {
      this.handlers.get(frame.address)(frame.body);
    } else if (frame.type === 'err') {
      const waiter = this.waiting.shift();
      if (waiter) waiter(frame); else this.refusals.push(frame);
    }
  }

  write(frame) {
    const json = Buffer.from(JSON.stringify(frame), 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32BE(json.length);
    this.socket.write(Buffer.concat([head, json]));
  }

  request(address, body) {
    const replyAddress = 'reply-' + (++this.next);
    return new Promise((resolve, reject) => {
      this.pending.set(replyAddress, { resolve, reject });
      this.write({ type: 'send', address, replyAddress, body });
    });
  }

  /** The failure of a request, as {code, message, details}; null if it succeeded. */
  async failure(address, body) {
    try {
      await this.request(address, body);
      return null;
    } catch (err) {
      return { code: err.code, message: err.message, details: err.details ?? null };
    }
  }

  refusal() {
    const ready = this.refusals.shift();
    return ready ? Promise.resolve(ready) : new Promise(resolve => this.waiting.push(resolve));
  }

  register(address, handler) {
    this.handlers.set(address, handler);
    this.write({ type: 'register', address });
  }
}

const out = {};
const bridge = await Bridge.connect(Number(env.BRIDGE_PORT));

out.beforeSignIn = await bridge.failure('api.conversation.list', {});
out.badToken = await bridge.failure('quarry.bridge.login', { token: 'qt_not-a-token' });
const me = await bridge.request('quarry.bridge.login', { token: env.BRIDGE_TOKEN });
out.signedIn = me;

// Acting for someone else: the body's user_id is ignored, the token's user acts.
const conversation = await bridge.request('api.conversation.create',
  { user_id: env.OTHER_USER_ID, title: 'From Node.js' });
out.conversation = conversation;
const listed = await bridge.request('api.conversation.list', { user_id: env.OTHER_USER_ID });
out.listed = listed.items.map(c => c.id);

const dataset = await bridge.request('api.dataset.add', { conversation_id: conversation.id, url: env.DATASET_URL });
out.dataset = { name: dataset.name, status: dataset.status, row_count: dataset.row_count };
const result = await bridge.request('api.query.run',
  { conversation_id: conversation.id, sql: `SELECT count(*) AS n FROM ${dataset.name}` });
out.rows = result.rows;
out.sqlError = await bridge.failure('api.query.run', { conversation_id: conversation.id, sql: 'SELECT nope FROM nowhere' });

let answer = '';
const completed = new Promise(resolve => bridge.register(`chat.events.${me.user_id}`, event => {
  if (event.conversation_id !== conversation.id) return;
  if (event.type === 'chat_token') answer += event.token;
  if (event.type === 'chat_complete' || event.type === 'chat_error') resolve(event);
}));
const started = await bridge.request('api.turn.start', { conversation_id: conversation.id, content: env.QUESTION });
const end = await completed;
out.answer = { text: answer, type: end.type, message_id_matches: end.message_id === started.message_id };
out.usage = await bridge.request('api.usage.get', {});

out.othersConversation = await bridge.failure('api.conversation.get', { conversation_id: env.OTHER_CONVERSATION });
out.internal = await bridge.failure('storage.conversation.list', { user_id: env.OTHER_USER_ID });
out.userLookup = await bridge.failure('api.user.find', { email: 'anyone@example.com' });
out.ping = await bridge.request('api.ping', {});
out.export = await bridge.failure('api.query.export', { conversation_id: conversation.id, sql: 'SELECT 1', format: 'csv' });
out.tooLong = await bridge.failure('api.turn.start', { conversation_id: conversation.id, content: 'q'.repeat(10_001) });
bridge.register(`chat.events.${env.OTHER_USER_ID}`, () => { out.stolenEvent = true; });
out.othersEvents = (await bridge.refusal()).message;

console.log(JSON.stringify(out));
clearTimeout(deadline);
bridge.socket.end();
