package io.quarry.llm;

/** Limits of a turn: the seed's values by default. */
record LlmSettings(String model, int maxToolCalls, int maxSqlRetries, int maxMessages, long contextBudgetTokens,
    int contextRetryDrop) {
}
