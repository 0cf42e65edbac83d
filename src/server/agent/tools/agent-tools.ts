import { AGENT_TOOL_NAMES, type AgentToolName } from "../../../shared/agent-tool-names";
import type { z } from "zod";
import type { AgentTool } from "./agent-tool";
import { dailyStatsTool } from "./daily-stats.tool";
import { exceptionDetailTool } from "./exception-detail.tool";
import { issueDetailTool } from "./issue-detail.tool";
import { issueExceptionsTool } from "./issue-exceptions.tool";
import { issueTagsTool } from "./issue-tags.tool";
import { listReleasesTool } from "./list-releases.tool";
import { releaseDetailTool } from "./release-detail.tool";
import { searchIssuesTool } from "./search-issues.tool";
import { setIssueSeverityTool } from "./set-issue-severity.tool";
import { setIssueStatusTool } from "./set-issue-status.tool";
import { whatChangedTool } from "./what-changed.tool";

/**
 * Every tool of the agent under its shared name: a name added to AGENT_TOOL_NAMES does not compile
 * until its tool is here, and a tool is filed under its own name only.
 */
export const AGENT_TOOL_REGISTRY = {
  searchIssues: searchIssuesTool,
  getIssue: issueDetailTool,
  listIssueExceptions: issueExceptionsTool,
  getException: exceptionDetailTool,
  dailyStats: dailyStatsTool,
  whatChanged: whatChangedTool,
  issueTags: issueTagsTool,
  listReleases: listReleasesTool,
  getRelease: releaseDetailTool,
  setIssueStatus: setIssueStatusTool,
  setIssueSeverity: setIssueSeverityTool,
} satisfies { [Name in AgentToolName]: AgentTool<z.ZodType, unknown, Name> };

/** All tools, in the order of AGENT_TOOL_NAMES (the order the model is offered them). */
export const AGENT_TOOLS: readonly AgentTool[] = AGENT_TOOL_NAMES.map((name): AgentTool => AGENT_TOOL_REGISTRY[name]);

/** The tools that only read: the chat runs them freely, an MCP server may expose them. */
export const READ_TOOLS = AGENT_TOOLS.filter((tool) => tool.kind === "read");

/** The tools that change data: only after the user approved the call in the chat. */
export const WRITE_TOOLS = AGENT_TOOLS.filter((tool) => tool.kind === "write");
