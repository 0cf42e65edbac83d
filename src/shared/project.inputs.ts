import { z } from "zod";
import { PLATFORMS } from "./platforms";

export const ProjectName = z.string().trim().min(1, "Please enter a project name").max(100, "Project names are at most 100 characters");

export const CreateProjectInput = z.object({
  name: ProjectName,
  platform: z.enum(PLATFORMS, { message: "Please choose a platform" }),
  description: z.string().trim().max(500, "Descriptions are at most 500 characters").optional(),
});
export type CreateProjectInput = z.infer<typeof CreateProjectInput>;

export const ProjectIdInput = z.object({ projectId: z.uuid("Invalid project id") });
export type ProjectIdInput = z.infer<typeof ProjectIdInput>;

export const RenameProjectInput = ProjectIdInput.extend({
  name: ProjectName,
  description: z.string().trim().max(500).nullable().optional(),
});
export type RenameProjectInput = z.infer<typeof RenameProjectInput>;

export const ProjectKeyInput = ProjectIdInput.extend({ keyId: z.uuid("Invalid key id") });
export type ProjectKeyInput = z.infer<typeof ProjectKeyInput>;

export const CreateProjectKeyInput = ProjectIdInput.extend({
  label: z.string().trim().min(1).max(60).default("Default"),
});
export type CreateProjectKeyInput = z.infer<typeof CreateProjectKeyInput>;
