package io.quarry.llm;

/**
 * Limits of a turn: the seed's values by default.
 *
 * @param checkpointMs how often a streaming answer is saved, so that a server killed mid-answer keeps it
 */
record LlmSettings(String model, int maxToolCalls, int maxSqlRetries, int maxMessages, long contextBudgetTokens,
    int contextRetryDrop, long checkpointMs) {
}
