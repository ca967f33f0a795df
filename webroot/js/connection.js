// How the connection stands, in the sidebar, and the banner that says it is lost while Quarry keeps trying.
import { elements } from './elements.js';

const $ = elements(['connection-dot', 'connection-text', 'connection-lost', 'connection-lost-text']);

/** @param status as connectSocket reports it: {state, lost, delay} */
export function showConnection({ state, lost, delay }) {
  const connected = state === 'connected';
  $('connection-dot').className = `dot ${connected ? 'connected' : lost ? 'lost' : ''}`;
  let text = 'Connecting…';
  if (connected) text = 'Connected';
  else if (lost) text = 'Connection lost';
  else if (state === 'reconnecting') text = delay ? `Reconnecting in ${delay} s…` : 'Reconnecting…';
  $('connection-text').textContent = text;
  $('connection-lost').hidden = connected || !lost;
  $('connection-lost-text').textContent = delay
    ? `Connection lost. Quarry keeps trying: next attempt in ${delay} s.`
    : 'Connection lost. Trying again now…';
}
