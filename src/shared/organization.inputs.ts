import { z } from "zod";
import { boundedText, ImageUrl } from "./text.inputs";

// Limits of what members type about their organization and teams. The spec states none, so these
// are the product's own, shared by the client forms and the auth service's input check (a 2 MiB
// member name once went to every member). Messages are what users read.

export const ORGANIZATION_NAME_MAX_LENGTH = 100;
export const ORGANIZATION_SLUG_MAX_LENGTH = 48;
export const TEAM_NAME_MAX_LENGTH = 100;
/** Serialised JSON, in UTF-8 bytes: metadata is for a few settings, not documents. */
export const ORGANIZATION_METADATA_MAX_BYTES = 4096;
/** The member list pages at most this many rows per request. */
export const MEMBER_PAGE_MAX = 100;
export const MEMBER_OFFSET_MAX = 100_000;

export const OrganizationName = boundedText(ORGANIZATION_NAME_MAX_LENGTH, "Names are at most 100 characters", {
  length: 2,
  message: "Please enter the organization's name",
});

export const OrganizationSlug = z
  .string()
  .min(2, "Please enter a URL name of at least 2 characters")
  .max(ORGANIZATION_SLUG_MAX_LENGTH, "URL names are at most 48 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes");

export const OrganizationMetadata = z
  .record(z.string(), z.unknown())
  .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= ORGANIZATION_METADATA_MAX_BYTES, "Metadata is at most 4 KiB of JSON");

export const TeamName = boundedText(TEAM_NAME_MAX_LENGTH, "Team names are at most 100 characters", { length: 1, message: "Please enter a team name" });

/** The onboarding form and the body of `/organization/create` (other keys are the auth service's). */
export const CreateOrganizationInput = z.object({ name: OrganizationName, slug: OrganizationSlug });
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationInput>;

/** The fields `/organization/update` may change; any other key is refused by name, not dropped. */
export const OrganizationUpdate = z
  .strictObject({
    name: OrganizationName,
    slug: OrganizationSlug,
    logo: ImageUrl.nullable(),
    metadata: OrganizationMetadata,
  })
  .partial()
  .refine((data) => Object.keys(data).length > 0, "Nothing to update: send name, slug, logo or metadata");

/** Integer query values arrive as text; NaN and fractions are refused instead of silently ignored. */
const integer = (min: number, max: number, name: string) =>
  z.coerce
    .number({ message: `${name} must be an integer` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be from ${min} to ${max}`)
    .max(max, `${name} must be from ${min} to ${max}`);

const MEMBER_FIELDS = ["createdAt", "role", "userId"] as const;
const shortText = boundedText(200, "must be at most 200 characters");

/** `/organization/list-members`: unknown fields and non-numeric paging used to reach the database as 500s. */
export const ListMembersQuery = z.object({
  limit: integer(1, MEMBER_PAGE_MAX, "limit").optional(),
  offset: integer(0, MEMBER_OFFSET_MAX, "offset").optional(),
  sortBy: z.enum(MEMBER_FIELDS, { message: `sortBy must be one of ${MEMBER_FIELDS.join(", ")}` }).optional(),
  filterField: z.enum(["role", "userId"], { message: "filterField must be role or userId" }).optional(),
  filterOperator: z.enum(["eq", "ne"], { message: "filterOperator must be eq or ne" }).optional(),
  filterValue: shortText.optional(),
  organizationId: shortText.optional(),
  organizationSlug: shortText.optional(),
});

/** `/organization/get-full-organization`: membersLimit "abc" became NaN. */
export const FullOrganizationQuery = z.object({
  membersLimit: integer(1, MEMBER_PAGE_MAX, "membersLimit").optional(),
  organizationId: shortText.optional(),
  organizationSlug: shortText.optional(),
});
