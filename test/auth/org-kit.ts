/** Organizations with members in given roles, built over HTTP as people would. */
import { expect } from "vitest";
import type { HttpSession } from "../helpers/http-session";
import type { TestServer } from "../helpers/test-server";
import { createOrganization, lastMail, signUpVerified, uniqueEmail } from "../helpers/test-users";
import { AUTH } from "./auth-kit";

export const orgPost = (session: HttpSession, path: string, body: unknown) => session.request(`${AUTH}/organization/${path}`, { body });

/** Invites a new user as `role`, who signs up, accepts and makes the organization active. */
export async function addMember(server: TestServer, owner: HttpSession, organizationId: string, role: string, name = `${role} person`) {
  const email = uniqueEmail(role.replace(/[^a-z]/g, "") || "member");
  const invited = await orgPost(owner, "invite-member", { email, role, organizationId });
  expect(invited.status, invited.text).toBe(200);
  const invitationId = new URL(lastMail(server, email, "invitation").actionUrl).searchParams.get("invitationId");
  const person = await signUpVerified(server, { email, name });
  const accepted = await orgPost(person.session, "accept-invitation", { invitationId });
  expect(accepted.status, accepted.text).toBe(200);
  await orgPost(person.session, "set-active", { organizationId });
  return { ...person, memberId: accepted.body.member.id as string };
}

/** An owner with an active organization, and its membership id. */
export async function ownerWithOrganization(server: TestServer, name = "Acme") {
  const owner = await signUpVerified(server, { name: "Olive Owner" });
  const org = await createOrganization(owner.session, name);
  const full = await owner.session.request(`${AUTH}/organization/get-full-organization`);
  const memberId = full.body.members.find((row: { userId: string }) => row.userId === owner.userId).id as string;
  return { owner: { ...owner, memberId }, org };
}
