import { z } from "zod";

/**
 * What a link into the product can name (the screens' URLs carry these ids): an issue, one of its
 * exceptions, a project, or a conversation with the agent. Releases have no screen yet.
 */
export const LINK_TARGET_KINDS = ["issue", "exception", "project", "chat"] as const;
export const LinkTargetKind = z.enum(LINK_TARGET_KINDS);
export type LinkTargetKind = z.infer<typeof LinkTargetKind>;

export const LinkTargetInput = z.object({ kind: LinkTargetKind, id: z.uuid("Invalid id") });
export type LinkTargetInput = z.infer<typeof LinkTargetInput>;
