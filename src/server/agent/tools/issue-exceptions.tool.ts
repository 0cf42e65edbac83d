import { z } from "zod";
import { ListExceptionsInput } from "../../../shared/triage.inputs";
import { listExceptions } from "../../exceptions/exception.service";
import { defineAgentTool } from "./agent-tool";
import { issueIdInput } from "./tool-inputs";

export const issueExceptionsTool = defineAgentTool({
  name: "listIssueExceptions",
  description: "The latest exceptions (single occurrences) of an issue, newest first: when, environment, release, platform, type and message.",
  kind: "read",
  input: z.object({
    issueId: issueIdInput,
    limit: z.number().int().min(1).max(50).default(10),
  }),
  async execute(scope, input) {
    const query = ListExceptionsInput.parse({ projectId: scope.projectId, issueId: input.issueId, page: 1, size: input.limit });
    const page = await listExceptions(scope, query);
    return {
      issueId: input.issueId,
      total: page.meta.totalItems,
      exceptions: page.items.map((item) => ({
        exceptionId: item.id,
        at: item.timestamp.toISOString(),
        environment: item.environmentName ?? item.environment,
        release: item.release,
        platform: item.platform,
        level: item.level,
        type: item.name,
        message: item.message,
      })),
    };
  },
});
