// Share links: "Share" in the conversation's header (the conversation as it is now) and "Share answer" under each
// answer (that answer and its question) open one dialog: who may open the link (within what this Quarry allows,
// share.audience, which /api/me tells), the name it shows, when it expires. The new link is shown once, with a copy
// button; the list below holds every link of the user's, each with Revoke (asked in the page's own dialog). A board's
// page opens the same dialog for the board (initBoardShare): its link shows the board's tiles as they are when opened.
import { api } from './api.js';
import { askDialog } from './ask-dialog.js';
import { elements } from './elements.js';
import { copyButton } from './save-file.js';

const $ = elements(['share-modal', 'share-close', 'share-what', 'share-form', 'share-audience',
  'share-name', 'share-expiry', 'share-error', 'share-made', 'share-link', 'share-copy', 'share-list', 'shares-empty',
  'share-title']);

/** What the dialog shares: {conversation_id, message_id?} or {board_id}; and the control that opened it. */
const target = { what: null, opener: null };

/**
 * @param conversationId () => the id of the conversation shown, or null
 * @param ceiling        who links may open for on this server (share.audience): anyone, users or off
 */
export function initShares(conversationId, ceiling) {
  init(ceiling);
  const button = document.getElementById('share-conversation');
  button.addEventListener('click', () => openConversation(conversationId(), null, button));
  document.addEventListener('quarry:share', (e) => openConversation(conversationId(), e.detail.messageId || null,
    e.detail.opener));
}

/**
 * A board's page: its Share button shares the board.
 * @param boardId the board shown
 * @param ceiling as for initShares
 * @param button  the board's Share button
 */
export function initBoardShare(boardId, ceiling, button) {
  init(ceiling);
  button.addEventListener('click', () => open({ board_id: boardId }, button,
    'A read-only link to this board: its tiles as they are when the link is opened, each saying when it ran. It '
    + 'cannot re-run, change or reach anything else of yours.'));
}

function init(ceiling) {
  // The dialog offers what the server allows; with sharing off there is nothing to offer at all.
  document.body.dataset.sharing = ceiling || 'users';
  if (ceiling !== 'anyone') $('share-audience').querySelector('option[value=anyone]')?.remove();
  $('share-close').addEventListener('click', () => $('share-modal').close());
  $('share-modal').addEventListener('close', () => {
    // The link leaves the page with the dialog: its token is not kept anywhere to be read later.
    $('share-link').value = '';
    $('share-made').hidden = true;
    target.opener?.focus();
  });
  $('share-form').addEventListener('submit', (e) => {
    e.preventDefault();
    create();
  });
  $('share-copy').append(copyButton('Copy link', () => $('share-link').value, 'Copy the link'));
}

/** Whether a conversation is shown, so that there is something to share. */
export function showShareButton(visible) {
  document.getElementById('share-conversation').hidden = !visible;
}

function openConversation(conversationId, messageId, opener) {
  if (!conversationId) return;
  open({ conversation_id: conversationId, message_id: messageId || undefined }, opener, messageId
    ? 'A read-only link to this answer and its question, with its SQL, tables and charts.'
    : 'A read-only link to this conversation as it is now: what is asked later is not shown.');
}

async function open(what, opener, says) {
  Object.assign(target, { what, opener });
  $('share-what').textContent = says;
  $('share-error').textContent = '';
  $('share-modal').showModal();
  $('share-audience').focus();
  await list();
}

async function create() {
  $('share-error').textContent = '';
  const days = $('share-expiry').value;
  try {
    const made = await api.createShare({
      ...target.what,
      audience: $('share-audience').value,
      display_name: $('share-name').value.trim() || undefined,
      expires_in_days: days ? Number(days) : undefined,
    });
    $('share-link').value = new URL(made.url, window.location.origin).href;
    $('share-made').hidden = false;
    $('share-link').focus();
    $('share-link').select();
    await list();
  } catch (e) {
    $('share-error').textContent = e.message;
  }
}

async function list() {
  try {
    const { shares } = await api.shares();
    $('share-list').replaceChildren(...shares.map(row));
    $('shares-empty').hidden = shares.length > 0;
  } catch (e) {
    $('share-error').textContent = e.message;
  }
}

function row(share) {
  const tr = document.createElement('tr');
  const shows = share.kind === 'board' ? `The board ${share.title || ''}`.trim()
    : `${share.kind === 'message' ? 'An answer in ' : ''}${share.title || 'a deleted conversation'}`;
  const who = share.audience === 'anyone' ? 'anyone with the link' : 'signed-in users';
  [shows, who, when(share.created_at), when(share.expires_at)]
    .forEach((text, i) => tr.append(cell(i === 0 ? 'th' : 'td', text)));
  const last = document.createElement('td');
  if (share.status === 'active') {
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke the link to ${shows}`);
    revoke.addEventListener('click', () => confirmRevoke(share, shows));
    last.append(revoke);
  } else {
    last.textContent = share.status === 'revoked' ? 'Revoked' : 'Expired';
  }
  tr.append(last);
  return tr;
}

function cell(tag, text) {
  const el = document.createElement(tag);
  if (tag === 'th') el.scope = 'row';
  el.textContent = text;
  return el;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never';
}

async function confirmRevoke(share, shows) {
  const revoked = await askDialog({
    title: 'Revoke this link?',
    message: `The link to ${shows} stops working at once for everyone who has it. This cannot be undone.`,
    confirm: 'Revoke',
    onConfirm: () => api.revokeShare(share.id),
  });
  if (revoked) {
    await list();
    $('share-title').focus();
  }
}
