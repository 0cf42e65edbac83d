import type { AgentTool } from "./agent-tool";
import { dailyStatsTool } from "./daily-stats.tool";
import { exceptionDetailTool } from "./exception-detail.tool";
import { issueDetailTool } from "./issue-detail.tool";
import { issueExceptionsTool } from "./issue-exceptions.tool";
import { issueTagsTool } from "./issue-tags.tool";
import { searchIssuesTool } from "./search-issues.tool";
import { setIssueSeverityTool } from "./set-issue-severity.tool";
import { setIssueStatusTool } from "./set-issue-status.tool";
import { whatChangedTool } from "./what-changed.tool";

/** The tools that only read: the chat runs them freely, an MCP server may expose them. */
export const READ_TOOLS = [
  searchIssuesTool,
  issueDetailTool,
  issueExceptionsTool,
  exceptionDetailTool,
  dailyStatsTool,
  whatChangedTool,
  issueTagsTool,
] as const;

/** The tools that change data: only after the user approved the call in the chat. */
export const WRITE_TOOLS = [setIssueStatusTool, setIssueSeverityTool] as const;

export const AGENT_TOOLS: readonly AgentTool[] = [...READ_TOOLS, ...WRITE_TOOLS] as readonly AgentTool[];
