import { z } from "zod";
import { PLATFORMS } from "./platforms";
import { ProjectSlug } from "./project-slug";
import { boundedText } from "./text.inputs";

export const PROJECT_NAME_MAX_LENGTH = 100;
export const PROJECT_DESCRIPTION_MAX_LENGTH = 500;
export const PROJECT_KEY_LABEL_MAX_LENGTH = 60;

export const ProjectName = boundedText(PROJECT_NAME_MAX_LENGTH, "Project names are at most 100 characters", {
  length: 1,
  message: "Please enter a project name",
});
const ProjectDescription = boundedText(PROJECT_DESCRIPTION_MAX_LENGTH, "Descriptions are at most 500 characters");

export const CreateProjectInput = z.object({
  name: ProjectName,
  platform: z.enum(PLATFORMS, { message: "Please choose a platform" }),
  description: ProjectDescription.optional(),
});
export type CreateProjectInput = z.infer<typeof CreateProjectInput>;

export const ProjectIdInput = z.object({ projectId: z.uuid("Invalid project id") });
export type ProjectIdInput = z.infer<typeof ProjectIdInput>;

export const RenameProjectInput = ProjectIdInput.extend({
  name: ProjectName,
  /** Absent: the slug stays as it is (renaming never changes it: sentry-cli configurations name it). */
  slug: ProjectSlug.optional(),
  description: ProjectDescription.nullable().optional(),
});
export type RenameProjectInput = z.infer<typeof RenameProjectInput>;

export const ProjectKeyInput = ProjectIdInput.extend({ keyId: z.uuid("Invalid key id") });
export type ProjectKeyInput = z.infer<typeof ProjectKeyInput>;

export const CreateProjectKeyInput = ProjectIdInput.extend({
  label: boundedText(PROJECT_KEY_LABEL_MAX_LENGTH, "Key labels are at most 60 characters", { length: 1, message: "Please enter a key label" }).default(
    "Default",
  ),
});
export type CreateProjectKeyInput = z.infer<typeof CreateProjectKeyInput>;
