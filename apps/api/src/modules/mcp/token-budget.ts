// The budget is shared by MCP `fetch` and Ask's context builder; it lives with the answer logic in libs/retrieval.
export { CHARS_PER_TOKEN, shareTokenBudget, truncateToLines, truncationMarker, type BudgetedText } from '@sextant/retrieval';
