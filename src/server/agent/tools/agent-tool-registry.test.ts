import { describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES } from "../../../shared/agent-tool-names";
import { AGENT_TOOL_REGISTRY, AGENT_TOOLS, READ_TOOLS, WRITE_TOOLS } from "./agent-tools";

describe("the agent tool registry", () => {
  it("offers one tool per shared name, in the shared order, each filed under its own name", () => {
    expect(AGENT_TOOLS.map((tool) => tool.name)).toEqual([...AGENT_TOOL_NAMES]);
    for (const [name, tool] of Object.entries(AGENT_TOOL_REGISTRY)) expect(tool.name).toBe(name);
  });

  it("splits the tools into reads and writes (writes wait for the user's approval)", () => {
    expect(WRITE_TOOLS.map((tool) => tool.name)).toEqual(["setIssueStatus", "setIssueSeverity"]);
    expect([...READ_TOOLS, ...WRITE_TOOLS]).toEqual(AGENT_TOOLS);
  });
});
