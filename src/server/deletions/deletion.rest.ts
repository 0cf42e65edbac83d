import { DeleteIssueInput, DeleteOrganizationInput, DeleteProjectInput, DeletionIdInput, EraseUserDataInput } from "../../shared/deletion.inputs";
import { DeletionList, DeletionRequestedView, DeletionView } from "../../shared/deletion.views";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import { requestOrganizationDeletion } from "./organization-deletion.service";
import { getDeletion, getRequestedDeletion, listDeletions, requestIssueDeletion, requestProjectDeletion, requestUserDataErasure } from "./deletion.service";

const tag = "Deletions";
const DELETIONS_PATH = "/organizations/:orgId/deletions";

/**
 * Deletions run as jobs: a request answers 202 with the deletion's id at once (the target is gone
 * for every reader from then on), and GET …/deletions/{deletionId} reports its progress.
 */
export const deletionRestRoutes: RestRoute[] = [
  {
    method: "delete",
    path: "/organizations/:orgId",
    summary: "Delete the organization with everything it holds",
    tag,
    output: DeletionRequestedView,
    response: "The deletion's id. Members, invitations and API tokens are gone at once; the requester follows the progress at GET /deletions/{deletionId}",
    status: 202,
    access: "organization",
    permission: "organization:delete",
    handler: (ctx, req) => requestOrganizationDeletion(ctx, DeleteOrganizationInput.parse({ organizationId: req.params.orgId })),
  },
  {
    method: "get",
    path: "/deletions/:deletionId",
    summary: "Get the progress of a deletion the caller asked for",
    tag,
    input: DeletionIdInput,
    output: DeletionView,
    response: "The deletion, in any organization (an organization's deletion outlives the requester's membership); another person's answers 404",
    access: "caller",
    handler: (ctx, req) => getRequestedDeletion(ctx, ctx.userId, DeletionIdInput.parse(req.params).deletionId),
  },
  {
    method: "delete",
    path: PROJECT_PATH,
    summary: "Delete a project with everything it holds",
    tag,
    output: DeletionRequestedView,
    response: "The deletion's id; its progress at GET /organizations/{orgId}/deletions/{deletionId}",
    status: 202,
    access: "organization",
    tokenScope: "project:write",
    permission: "project:delete",
    handler: (ctx, req) => requestProjectDeletion(ctx, DeleteProjectInput.parse(req.params).projectId),
  },
  {
    method: "delete",
    path: `${PROJECT_PATH}/issues/:issueId`,
    summary: "Delete an issue with its occurrences",
    tag,
    output: DeletionRequestedView,
    response: "The deletion's id; its progress at GET /organizations/{orgId}/deletions/{deletionId}",
    status: 202,
    access: "organization",
    tokenScope: "event:write",
    permission: "issue:delete",
    handler: (ctx, req) => requestIssueDeletion(ctx, DeleteIssueInput.parse(req.params)),
  },
  {
    method: "post",
    path: "/organizations/:orgId/user-data/erase",
    summary: "Erase every occurrence carrying a person (user id, email or IP address)",
    tag,
    input: EraseUserDataInput,
    output: DeletionRequestedView,
    response: "The erasure's id; its progress at GET /organizations/{orgId}/deletions/{deletionId}",
    status: 202,
    access: "organization",
    permission: "organization:update",
    handler: (ctx, req) => requestUserDataErasure(ctx, EraseUserDataInput.parse(req.body ?? {})),
  },
  {
    method: "get",
    path: DELETIONS_PATH,
    summary: "List the organization's latest deletions",
    tag,
    output: DeletionList,
    response: "The latest 50 deletions, newest first, with their progress",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx) => listDeletions(ctx),
  },
  {
    method: "get",
    path: `${DELETIONS_PATH}/:deletionId`,
    summary: "Get a deletion's progress",
    tag,
    input: DeletionIdInput,
    output: DeletionView,
    response: "The deletion: status, done of total, who asked",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => getDeletion(ctx, DeletionIdInput.parse(req.params).deletionId),
  },
];
