/**
 * The avatar never makes the viewer's browser fetch an unknown host. Battery: a known provider's
 * https picture renders as an <img>; http, unknown hosts and a stored javascript: value render the
 * initials and no <img> at all; no picture renders the initials.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { UserAvatar } from "./user-avatar";

const render = (image: string | null) => renderToStaticMarkup(createElement(UserAvatar, { name: "Ada Lovelace", image }));

describe("UserAvatar", () => {
  it("shows a known provider's https picture", () => {
    const html = render("https://avatars.githubusercontent.com/u/9919?v=4");
    expect(html).toContain('<img src="https://avatars.githubusercontent.com/u/9919?v=4"');
    expect(html).toContain('referrerPolicy="no-referrer"');
  });

  it("draws initials instead of fetching anything else", () => {
    for (const image of ["http://avatars.githubusercontent.com/u/1", "https://tracker.example/pixel.gif?u=1", "javascript:alert(1)", null]) {
      const html = render(image);
      expect(html, String(image)).not.toContain("<img");
      expect(html).toContain(">AL</span>");
    }
  });
});
