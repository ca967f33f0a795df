// The event socket. Reconnects with backoff 1, 2, 4, 8, 16, then every 30 s for as long as it takes: after five
// failed attempts it reports the connection lost but keeps trying, and tries at once when the browser comes back
// online or retry() is called. Answers the server's pings.
import { EVENTS } from './events.js';

const BACKOFF_SECONDS = [1, 2, 4, 8, 16, 30];
const LOST_AFTER_FAILURES = 5;

/**
 * @param onStatus ({state: 'connecting' | 'connected' | 'reconnecting', lost, delay}) => void; delay is the
 *                 seconds until the next attempt while one waits
 */
export function connectSocket({ onEvent, onStatus, onReconnect }) {
  let socket = null;
  let failures = 0;
  let everConnected = false;
  let timer = null;

  function report(state, delay) {
    onStatus({ state, lost: failures >= LOST_AFTER_FAILURES, delay });
  }

  function open() {
    clearTimeout(timer);
    // One socket at a time: an attempt under way, or a live socket, is not started again.
    if (socket && socket.readyState <= WebSocket.OPEN) return;
    report(everConnected ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      failures = 0;
      report('connected');
      if (everConnected) onReconnect();
      everConnected = true;
    };
    ws.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.type === EVENTS.PING) {
        ws.send(JSON.stringify({ type: 'pong' }));
        return;
      }
      onEvent(event);
    };
    ws.onclose = () => {
      if (ws !== socket) return; // a socket given up for a newer one
      if (!opened) failures += 1;
      const delay = BACKOFF_SECONDS[Math.min(failures, BACKOFF_SECONDS.length - 1)];
      report('reconnecting', delay);
      timer = setTimeout(open, delay * 1000);
    };
  }

  window.addEventListener('online', open);
  open();
  return { retry: open };
}
