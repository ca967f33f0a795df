// Wires the three panels to the REST API and the event socket.
import { api, ApiError, Unreachable } from './api.js';
import { connectSocket } from './socket.js';
import { showConnection } from './connection.js';
import { showEmptyState } from './empty-state.js';
import { unsent } from './unsent.js';
import { MessageView } from './messages.js';
import { DatasetPanel } from './datasets.js';
import { ConversationList } from './conversations.js';
import { showSignIn, signOut } from './auth.js';
import { elements } from './elements.js';
import { EVENTS, isDatasetEvent } from './events.js';
import { SqlRunner } from './sql-runner.js';
import { initTheme } from './theme.js';
import { drawers } from './drawers.js';
import { ConversationSearch } from './search.js';
import { address, revealResult } from './address.js';
import { showNotFound } from './not-found.js';
import { drafts } from './drafts.js';
import { switchUrlDraft } from './url-drafts.js';
import { initTokens } from './tokens.js';
import { initShares, showShareButton } from './share.js';
import { initSchedules, notifyRun } from './schedules.js';

const state = { conversationId: null, streaming: false, chatAvailable: true, limitReached: false, asked: '' };
const $ = elements([
  'account', 'account-email', 'announcer', 'banner', 'composer', 'conversation-title', 'input', 'messages',
  'new-conversation', 'retry-connection', 'samples', 'schema-modal', 'send', 'signout', 'skip-to-input', 'stop',
  'usage', 'usage-fill', 'usage-text',
]);
const input = $('input');

/** Tells screen readers, politely: a finished answer, a query running, a table ready. */
function announce(text) {
  $('announcer').textContent = text;
}

const messages = new MessageView($('messages'), () => state.conversationId, {
  announce,
  retry: (question) => retry(question),
  resume: (messageId) => resume(messageId),
});
const sqlRunner = new SqlRunner(() => state.conversationId, {
  shown: {
    result: (sql, result) => messages.showSqlResult(sql, result),
    error: (sql, message) => messages.showSqlError(sql, message),
  },
  ran: () => refreshEmptyState(),
});
const datasets = new DatasetPanel(() => state.conversationId, { onChange: () => refreshEmptyState() });
/** A conversation chosen in the list or among those found: on a phone its drawer closes, the chat box has focus. */
function choose(id) {
  drawers.close({ returnFocus: false });
  return open(id, { push: true });
}
const conversations = new ConversationList({
  onSelect: choose,
  onDeleted: async (id) => {
    if (id !== state.conversationId) return;
    // The deleted one's address leads nowhere now: the one shown instead takes its place in the history.
    await openNewest({ push: false });
  },
});

new ConversationSearch({ onSelect: choose });

function banner(text) {
  $('banner').textContent = text || '';
  $('banner').hidden = !text;
}

function setStreaming(on) {
  state.streaming = on;
  $('stop').hidden = !on;
  $('send').disabled = on || !state.chatAvailable || state.limitReached;
}

/** Puts text in the chat box; it is the draft of the conversation shown (kept when another is shown). */
function setInput(text) {
  input.value = text;
  drafts.set(state.conversationId, text);
}

/** Another conversation is shown: the box holds its own draft, the one left keeps what was typed in it. */
function switchDraft(id) {
  if (id === state.conversationId) return;
  drafts.set(state.conversationId, input.value);
  input.value = drafts.get(id);
  switchUrlDraft(state.conversationId, id);
}

function updateInputState() {
  input.disabled = !state.chatAvailable || state.limitReached || !state.conversationId;
  $('send').disabled = state.streaming || input.disabled;
}

/** Opens a conversation and puts its address in the bar (@param push: Back returns to the one before). */
async function open(id, { push }) {
  address.show(id, { push });
  await select(id);
}

/** The newest conversation, or a new one when there is none. */
async function openNewest({ push }) {
  const list = conversations.items;
  await open(list.length ? list[0].id : (await conversations.create()).id, { push });
}

/** Shows a conversation (again, when it is the one shown); its address is the caller's concern. */
async function select(id) {
  switchDraft(id);
  sqlRunner.switchConversation(state.conversationId, id);
  state.conversationId = id;
  updateInputState();
  conversations.setActive(id);
  setStreaming(false);
  let conversation;
  try {
    conversation = await api.conversation(id);
  } catch (e) {
    if (state.conversationId !== id) return; // another was chosen meanwhile: that one is shown
    if (!(e instanceof ApiError && e.status === 404)) throw e;
    notFound();
    return;
  }
  // Chosen again while this one loaded (Back pressed twice, a quick click): the later choice is shown.
  if (state.conversationId !== id) return;
  $('conversation-title').textContent = conversation.conversation.title;
  showShareButton(true);
  await messages.showConversation(conversation.messages, conversation.runs);
  datasets.show(conversation.datasets);
  refreshEmptyState();
  input.focus();
  checkVersions(id);
}

/** The address names no conversation of this user's: nothing can be asked or added until one is chosen. */
function notFound() {
  switchDraft(null);
  sqlRunner.switchConversation(state.conversationId, null);
  state.conversationId = null;
  updateInputState();
  conversations.setActive(null);
  datasets.show([]);
  messages.clear();
  showEmptyState(false, [], null);
  $('conversation-title').textContent = 'Conversation not found';
  showShareButton(false);
  showNotFound($('messages'), { toList: () => toList() });
}

/** From "Conversation not found": the newest conversation, with the list (a drawer on a phone) open beside it. */
async function toList() {
  await openNewest({ push: true });
  drawers.open(document.getElementById('conversations-panel'));
}

/** Back, Forward, or a result's fragment: the conversation the address names, scrolled to the result it names. */
async function moved(id, resultId) {
  if (!id && address.malformed()) {
    notFound();
    return;
  }
  if (!id) {
    await openNewest({ push: false });
    return;
  }
  if (id !== state.conversationId) await select(id);
  if (state.conversationId === id && revealResult(resultId)) messages.stayHere();
}

/** Asks whether the datasets' files changed since: the results that read an earlier version then say so. */
async function checkVersions(id) {
  try {
    const checked = await api.checkDatasetVersions(id);
    if (checked.changed > 0 && state.conversationId === id) checked.datasets.forEach((d) => datasets.upsert(d));
  } catch {
    // A check that could not be made changes nothing: the results stay as they were.
  }
}

/** An empty conversation says how to start, or that its tables are ready; the input stays at the bottom. */
function refreshEmptyState() {
  const canAsk = state.chatAvailable && !state.limitReached;
  showEmptyState(!messages.hasMessages(), datasets.all(), canAsk ? (question) => ask(question, { fromBox: false }) : null);
}

/** Whether the conversation shown has nothing yet: no message, no dataset, no answer under way. */
function isEmpty() {
  return !messages.hasMessages() && datasets.all().length === 0 && !state.streaming;
}

/** A new conversation, unless an empty one is at hand: the one shown, or the newest. */
async function newConversation() {
  if (state.conversationId && isEmpty()) {
    input.focus();
    return;
  }
  const newest = conversations.items[0];
  if (newest && newest.id !== state.conversationId) {
    const found = await api.conversation(newest.id);
    if (found.messages.length === 0 && found.datasets.length === 0) {
      await open(newest.id, { push: true });
      return;
    }
  }
  await open((await conversations.create()).id, { push: true });
}

async function loadSamples() {
  const { samples } = await api.samples();
  $('samples').replaceChildren(...samples.map((s) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'sample';
    b.innerHTML = '<strong></strong><span></span><small class="muted"></small>';
    b.querySelector('strong').textContent = `Try sample data: ${s.title}`;
    b.querySelector('span').textContent = s.description;
    b.querySelector('small').textContent = ` Source: ${s.source}`;
    b.addEventListener('click', async () => {
      await datasets.add(s.url);
      input.focus();
    });
    return b;
  }));
}

function send() {
  return ask(input.value);
}

/** Asks again a question whose answer failed; the box is emptied if it still holds that question. */
function retry(question) {
  if (state.streaming) return;
  if (input.value.trim() === question.trim()) setInput('');
  ask(question, { fromBox: false });
}

/**
 * Continues a cut-off answer: the rest streams into it. Refused (a turn running elsewhere, the daily limit), the
 * answer says why; the stored one is still cut off, and shows Continue again when the conversation is opened.
 */
async function resume(messageId) {
  if (state.streaming || !state.conversationId) return;
  if (!messages.continueAnswer(messageId)) return;
  setStreaming(true);
  try {
    await api.continueAnswer(state.conversationId, messageId);
  } catch (e) {
    setStreaming(false);
    messages.onEvent({ type: EVENTS.CHAT_ERROR, message_id: messageId, error: e.message, details: e.details });
    if (e.status === 429 && e.body && e.body.resets_in_seconds > 0) limitReached(e.body.resets_in_seconds);
  }
}

/** @param fromBox whether the question is what the box holds (emptied as it is sent, and given back on failure) */
async function ask(typed, { fromBox = true } = {}) {
  const content = typed.trim();
  if (!content || state.streaming || !state.conversationId) return;
  unsent.hide();
  if (fromBox) setInput('');
  state.asked = content;
  const question = messages.addUser(content);
  const answer = messages.startAnswer(content);
  refreshEmptyState();
  setStreaming(true);
  try {
    const { message_id: id } = await api.sendMessage(state.conversationId, content);
    messages.claim(id);
  } catch (e) {
    setStreaming(false);
    if (e instanceof Unreachable) {
      unreachable(question, answer, typed);
      return;
    }
    messages.onEvent({ type: EVENTS.CHAT_ERROR, error: e.message, details: e.details });
    keepQuestion();
    if (e.status === 429 && e.body.resets_in_seconds > 0) limitReached(e.body.resets_in_seconds);
  }
}

/** An answer failed: its question goes back to the box (unless something new is there), to edit or send again. */
function keepQuestion() {
  if (!input.value.trim() && state.asked) setInput(state.asked);
}

/** Nothing was sent: the question goes back to the input as typed (unless something new is there), to send again. */
function unreachable(question, answer, typed) {
  messages.retract(question, answer);
  refreshEmptyState();
  if (!input.value) setInput(typed);
  unsent.show();
  input.focus();
}

async function stop() {
  await api.stop(state.conversationId);
  messages.stopped();
  setStreaming(false);
  // The Stop button goes away with the answer: focus goes where the next question is typed.
  input.focus();
}

/** Esc stops an answer being written, unless a dialog takes it (it closes the dialog). */
function onEscape(e) {
  // A dialog open over the page (the schema, a rename or delete question) takes the key: it closes the dialog.
  if (e.key !== 'Escape' || e.defaultPrevented || !state.streaming || $('schema-modal').open
    || e.target.closest?.('dialog')) return;
  e.preventDefault();
  stop().catch((err) => banner(err.message));
}

function limitReached(resetsInSeconds) {
  state.limitReached = true;
  updateInputState();
  banner('Daily limit reached. You can ask again when older usage leaves the 24-hour window'
    + (resetsInSeconds ? ` (in about ${Math.ceil(resetsInSeconds / 60)} minutes).` : '.'));
  if (resetsInSeconds) {
    setTimeout(() => { state.limitReached = false; updateInputState(); banner(''); }, resetsInSeconds * 1000);
  }
}

function onEvent(event) {
  if (event.type === EVENTS.RATE_LIMIT_WARNING) {
    banner(`You have used ${Math.round(event.usage_percent)}% of today's tokens.`);
    return;
  }
  if (event.type === EVENTS.RATE_LIMIT_EXCEEDED) {
    limitReached(event.resets_in_seconds);
    return;
  }
  if (event.type === EVENTS.SCHEDULE_RUN) {
    // Whichever conversation it is of: a scheduled run is news wherever the user is.
    notifyRun(event);
    return;
  }
  if (event.type === EVENTS.CONVERSATION_UPDATED) {
    conversations.retitle(event.conversation_id, event.title);
    if (event.conversation_id === state.conversationId) $('conversation-title').textContent = event.title;
    return;
  }
  if (event.conversation_id !== state.conversationId) return;
  if (isDatasetEvent(event.type)) {
    if (event.type === EVENTS.DATASET_LOADED) announce(`${event.dataset.name} is ready.`);
    // A dataset_error says which failure it was beside the dataset: its card shows both.
    const dataset = event.type === EVENTS.DATASET_ERROR ? { ...event.dataset, error_details: event.details } : event.dataset;
    if (event.type === EVENTS.DATASET_REMOVED) datasets.removed(dataset); else datasets.upsert(dataset);
    return;
  }
  if (event.type === EVENTS.QUERY_PROGRESS) sqlRunner.progress(event);
  if (event.type === EVENTS.QUERY_STATUS && event.phase === 'executing') announce('Running a query…');
  const live = messages.active;
  messages.onEvent(event);
  if (event.type === EVENTS.CHAT_ERROR && live) keepQuestion();
  if (event.type === EVENTS.CHAT_COMPLETE || event.type === EVENTS.CHAT_ERROR) {
    setStreaming(false);
    showUsage();
    // An answer that was already streaming when this page loaded shows as stored, now complete.
    if (!live) select(state.conversationId);
  }
}

function onStatus(status) {
  showConnection(status);
  if (status.state === 'connected') unsent.connectionBack();
}

/** After reconnecting, the conversation is fetched again (events may have been missed); a failure is retried. */
async function refetch(attempts) {
  try {
    await conversations.load();
    if (state.conversationId) await select(state.conversationId);
  } catch (e) {
    if (attempts > 1) setTimeout(() => refetch(attempts - 1), 1000);
    else banner(`Could not reload the conversation: ${e.message}`);
  }
}

async function showUsage() {
  try {
    const usage = await api.usage();
    $('usage').hidden = false;
    $('usage-text').textContent = `${usage.usage_percent}% of ${usage.token_limit.toLocaleString()}`;
    $('usage-fill').style.width = `${Math.min(100, usage.usage_percent)}%`;
    $('usage-fill').parentElement.setAttribute('aria-valuenow', String(usage.usage_percent));
    if (usage.tokens_used >= usage.token_limit) limitReached(usage.resets_in_seconds);
  } catch {
    $('usage').hidden = true;
  }
}

async function start() {
  initTheme();
  let me;
  try {
    me = await api.me();
  } catch (e) {
    if (e.status === 401) {
      showSignIn();
      return;
    }
    throw e;
  }
  if (me.auth_mode === 'password') {
    $('account').hidden = false;
    $('account-email').textContent = me.email;
    $('signout').addEventListener('click', signOut);
  }
  initTokens();
  initShares(() => state.conversationId, me.share_audience);
  initSchedules();
  state.chatAvailable = me.chat_available !== false;
  messages.followUpsByModel = me.follow_ups === 'model';
  if (!state.chatAvailable) {
    banner('Chat needs GEMINI_API_KEY: set it in the server\'s environment and restart. Datasets and SQL work without it.');
  }
  updateInputState();
  const socket = connectSocket({
    onEvent,
    onStatus,
    onReconnect: () => refetch(3),
  });
  $('retry-connection').addEventListener('click', () => socket.retry());
  $('new-conversation').addEventListener('click', () => {
    drawers.close({ returnFocus: false });
    newConversation().catch((e) => banner(e.message));
  });
  unsent.onSendAgain(send);
  $('composer').addEventListener('submit', (e) => { e.preventDefault(); send(); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    }
  });
  // Kept as typed, so a reload (or a return to this conversation) finds it in the box.
  input.addEventListener('input', () => drafts.set(state.conversationId, input.value));
  $('stop').addEventListener('click', stop);
  document.addEventListener('keydown', onEscape);
  $('skip-to-input').addEventListener('click', (e) => {
    e.preventDefault();
    input.focus();
  });
  // Three requests at once, not one after another: a far user's first page waits one round trip for them, not three.
  await Promise.all([loadSamples(), showUsage(), conversations.load()]);
  address.onMove((id, resultId) => moved(id, resultId).catch((e) => banner(e.message)));
  // The address the page was opened at (a reload, a bookmark, a link), else the newest conversation, named.
  await moved(address.conversationId(), address.resultId());
  document.body.dataset.ready = 'true';
}

start().catch((e) => banner(`Quarry could not start: ${e.message}`));
