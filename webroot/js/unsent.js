// A question that could not be sent because Quarry could not be reached: it stays in the input, and the page
// offers to send it again, saying so once the connection is back.
import { elements } from './elements.js';

const $ = elements(['send-failed', 'send-failed-text', 'send-again']);

export const unsent = {
  onSendAgain(handler) {
    $('send-again').addEventListener('click', handler);
  },

  show() {
    $('send-failed-text').textContent = 'Quarry cannot be reached, so your question was not sent. '
      + 'It is still in the box below; send it again when the connection is back.';
    $('send-failed').hidden = false;
  },

  /** Called when the socket connects again: the offer now says the way is clear. */
  connectionBack() {
    if ($('send-failed').hidden) return;
    $('send-failed-text').textContent = 'The connection is back. Your question was not sent yet.';
  },

  hide() {
    $('send-failed').hidden = true;
  },
};
