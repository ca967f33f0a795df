// The event socket: reconnects with backoff 1, 2, 4, 8, 16, 30 s; after 5 failed attempts it reports
// "lost" and waits for retry(). Answers the server's pings.
import { EVENTS } from './events.js';

const BACKOFF_SECONDS = [1, 2, 4, 8, 16, 30];
const MAX_FAILED_ATTEMPTS = 5;

export function connectSocket({ onEvent, onStatus, onReconnect }) {
  let socket = null;
  let failures = 0;
  let everConnected = false;
  let timer = null;

  function open() {
    clearTimeout(timer);
    onStatus(everConnected ? 'reconnecting' : 'connecting');
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    socket = new WebSocket(url);
    let opened = false;
    socket.onopen = () => {
      opened = true;
      failures = 0;
      onStatus('connected');
      if (everConnected) {
        onReconnect();
      }
      everConnected = true;
    };
    socket.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (event.type === EVENTS.PING) {
        socket.send(JSON.stringify({ type: 'pong' }));
        return;
      }
      onEvent(event);
    };
    socket.onclose = () => {
      if (!opened) {
        failures += 1;
      }
      if (failures >= MAX_FAILED_ATTEMPTS) {
        onStatus('lost');
        return;
      }
      onStatus('reconnecting');
      const delay = BACKOFF_SECONDS[Math.min(failures, BACKOFF_SECONDS.length - 1)] * 1000;
      timer = setTimeout(open, delay);
    };
  }

  open();
  return {
    retry() {
      failures = 0;
      open();
    },
  };
}
