import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../helpers/http-session";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { PASSWORD, uniqueEmail } from "../helpers/test-users";
import { AUTH, currentUser, location, pathOf, signIn, signUp } from "./auth-kit";
import { startSmtpCatcher, type SmtpCatcher } from "./smtp-catcher";

describe("mail over SMTP", () => {
  let smtp: SmtpCatcher;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: "Faultline <robot@faultline.test>" } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  /** Signs up and verifies through the link that arrived by SMTP. */
  async function signUpThroughSmtp(email = uniqueEmail("smtp")) {
    const { response } = await signUp(server, { email, callbackURL: "/dashboard" });
    expect(response.status, response.text).toBe(200);
    const mail = await smtp.waitFor(email, (entry) => entry.subject === "Verify your email for Faultline");
    const link = mail.links.find((href) => href.includes("/verify-email"));
    expect(link, mail.text).toBeDefined();
    const browser = new HttpSession(server.url);
    const opened = await browser.request(pathOf(link!));
    expect(opened.status).toBe(302);
    return { email, browser };
  }

  it("delivers the sign-up verification mail with a working link, and keeps no local outbox", async () => {
    const email = uniqueEmail("smtp");
    const { browser } = await signUpThroughSmtp(email);
    const mail = smtp.mails.find((entry) => entry.to.includes(email))!;
    expect(mail.from).toBe("robot@faultline.test");
    expect(mail.raw).toMatch(/^From: Faultline <robot@faultline\.test>/m);
    const link = new URL(mail.links.find((href) => href.includes("/verify-email"))!);
    expect(link.origin).toBe(server.url);
    expect(link.searchParams.get("callbackURL")).toBe("/dashboard");
    expect(mail.raw).toContain("text/html");

    expect(await currentUser(browser)).toMatchObject({ email, emailVerified: true });
    expect(server.mailer.outbox()).toEqual([]);
    expect((await browser.query("config.get")).data.devOutbox).toBe(false);
  });

  it("delivers the password reset mail; its link leads to a working reset", async () => {
    const { email } = await signUpThroughSmtp();
    const requested = await new HttpSession(server.url).request(`${AUTH}/request-password-reset`, { body: { email, redirectTo: "/auth/reset-password" } });
    expect(requested.status).toBe(200);
    const mail = await smtp.waitFor(email, (entry) => entry.subject === "Reset your Faultline password");
    const link = mail.links.find((href) => href.includes("/reset-password/"));
    expect(link, mail.text).toBeDefined();

    const opened = await new HttpSession(server.url).request(pathOf(link!));
    const token = location(server, opened).searchParams.get("token");
    expect(token).toHaveLength(24);
    const reset = await new HttpSession(server.url).request(`${AUTH}/reset-password`, { body: { token, newPassword: "smtp-new-password" } });
    expect(reset.status).toBe(200);
    expect((await signIn(server, email, "smtp-new-password")).response.status).toBe(200);
    expect((await signIn(server, email, PASSWORD)).response.status).toBe(401);
  });

  it("delivers the invitation mail with a link naming the invitation", async () => {
    const { browser: owner } = await signUpThroughSmtp();
    const created = await owner.request(`${AUTH}/organization/create`, { body: { name: "Mailers", slug: `mailers-${Date.now().toString(36)}` } });
    expect(created.status, created.text).toBe(200);
    const invitee = uniqueEmail("invitee");
    const invited = await owner.request(`${AUTH}/organization/invite-member`, { body: { email: invitee, role: "member", organizationId: created.body.id } });
    expect(invited.status, invited.text).toBe(200);

    const mail = await smtp.waitFor(invitee);
    expect(mail.subject).toBe("Test User invited you to Mailers on Faultline");
    expect(mail.text).toContain("as member");
    const link = new URL(mail.links.find((href) => href.includes("invitationId="))!);
    expect(link.origin).toBe(server.url);
    expect(link.searchParams.get("invitationId")).toBe(invited.body.id);
  });
});
