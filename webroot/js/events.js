// The event types the server sends on the socket: a mirror of io.quarry.bus.ChatEvents (EventsMirrorTest checks it).
export const EVENTS = Object.freeze({
  DATASET_LOADING: 'dataset_loading',
  DATASET_LOADED: 'dataset_loaded',
  DATASET_ERROR: 'dataset_error',
  DATASET_REMOVED: 'dataset_removed',
  CHAT_TOKEN: 'chat_token',
  QUERY_STATUS: 'query_status',
  TOOL_CALL_START: 'tool_call_start',
  QUERY_RESULT: 'query_result',
  QUERY_ERROR: 'query_error',
  QUERY_PROGRESS: 'query_progress',
  CHART: 'chart',
  TABLE: 'table',
  CHAT_COMPLETE: 'chat_complete',
  CHAT_ERROR: 'chat_error',
  RATE_LIMIT_WARNING: 'rate_limit_warning',
  RATE_LIMIT_EXCEEDED: 'rate_limit_exceeded',
  CONVERSATION_UPDATED: 'conversation_updated',
  PING: 'ping',
  SCHEDULE_RUN: 'schedule_run',
});

const DATASET_EVENTS = new Set([EVENTS.DATASET_LOADING, EVENTS.DATASET_LOADED, EVENTS.DATASET_ERROR, EVENTS.DATASET_REMOVED]);

export function isDatasetEvent(type) {
  return DATASET_EVENTS.has(type);
}
