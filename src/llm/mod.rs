//! LLM providers: OpenAI-compatible chat completions and Anthropic messages,
//! over reqwest, with tool calls, retries and token counts.
