/**
 * The agent's tools by name, in the order the model is offered them. The server defines one tool
 * per name (server/agent/tools/agent-tools.ts) and the chat screen labels each; both are keyed by
 * this list, so a tool added here does not compile until it exists and has a label.
 */
export const AGENT_TOOL_NAMES = [
  "searchIssues",
  "getIssue",
  "listIssueExceptions",
  "getException",
  "dailyStats",
  "whatChanged",
  "issueTags",
  "listReleases",
  "getRelease",
  "setIssueStatus",
  "setIssueSeverity",
] as const;
export type AgentToolName = (typeof AGENT_TOOL_NAMES)[number];

/** A tool part's name as the chat stream carries it (plain text) narrowed to a known tool. */
export function isAgentToolName(name: string): name is AgentToolName {
  return AGENT_TOOL_NAMES.some((known) => known === name);
}
