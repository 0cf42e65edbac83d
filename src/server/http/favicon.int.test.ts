import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../test/helpers/test-server";
import { signUpVerified } from "../../../test/helpers/test-users";

/**
 * Issue 14 item 24: pages the server renders itself have an icon and the product's look, and
 * /favicon.ico (asked for by browsers on any page without an icon link) is not a 404 — whatever
 * the client mode, API-only included.
 */
describe("favicon and the styled outbox", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("serves the icon at /favicon.ico and /favicon.svg without the client", async () => {
    for (const path of ["/favicon.ico", "/favicon.svg"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toContain("image/svg+xml");
      expect(await response.text(), path).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  it("renders the outbox with the icon, a phone viewport and its own styles, mails escaped", async () => {
    const { email } = await signUpVerified(server, { name: "Outbox <b>Reader</b>" });
    const response = await fetch(`${server.url}/dev/outbox`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const icon = html.match(/<link rel="icon" type="image\/svg\+xml" href="([^"]+)">/);
    expect(icon).not.toBeNull();
    expect((await fetch(new URL(icon![1], server.url))).status).toBe(200);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<style>[^<]*prefers-color-scheme:dark/);
    expect(html).toContain(`data-to="${email}"`);
    expect(html).not.toContain("<b>Reader</b>");
  });
});
