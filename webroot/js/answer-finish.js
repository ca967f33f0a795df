// What a finished answer gets, live and after a reload alike: its numbers marked as checked against the data, and
// "Copy answer", which copies the answer as it was written (its markdown), not as the page shows it, and "Share", a
// read-only link to this answer and its question (share.js).
import { markNumbers } from './numbers.js';
import { copyButton } from './save-file.js';

/**
 * @param parts   {el, content, artifacts} of the answer, its text already rendered in content
 * @param text    the answer's markdown
 * @param numbers the server's check of its numbers, or nothing
 */
export function finishAnswer(parts, text, numbers) {
  markNumbers(parts.content, numbers);
  if (!text || !text.trim() || parts.el.querySelector(':scope > .answer-tools')) return;
  const bar = document.createElement('div');
  bar.className = 'answer-actions';
  bar.append(copyButton('Copy answer', () => text, 'Copies the answer\'s text (markdown)'));
  const tools = document.createElement('div');
  tools.className = 'answer-tools';
  tools.append(bar, shareButton(parts.el));
  parts.el.insertBefore(tools, parts.artifacts);
}

/** Beside the answer's own actions (its span, not theirs): a link to the answer is not an action on its text. */
function shareButton(answer) {
  const span = document.createElement('span');
  span.className = 'answer-share';
  const share = document.createElement('button');
  share.type = 'button';
  share.textContent = 'Share answer';
  share.setAttribute('aria-haspopup', 'dialog');
  // The answer's id, known once it is stored: asked at the click, not now.
  share.addEventListener('click', () => document.dispatchEvent(new CustomEvent('quarry:share',
    { detail: { messageId: answer.dataset.messageId, opener: share } })));
  span.append(share);
  return span;
}
