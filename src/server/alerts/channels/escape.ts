/**
 * Escaping of untrusted event text (titles, culprits, messages, releases) for each chat format, so
 * an event cannot ping a whole workspace (@everyone, <!channel>), forge a link, or break the layout.
 */

const ZERO_WIDTH_SPACE = "\u200b";

/** Breaks every @mention (@everyone, @here, @channel, @user) by putting a zero-width space after the @. */
export function breakMentions(text: string): string {
  return text.replace(/@/g, `@${ZERO_WIDTH_SPACE}`);
}

/** Slack mrkdwn: &, < and > are its only control characters (<!channel>, <@U1>, <url|label> all need <). */
export function escapeSlack(text: string): string {
  return breakMentions(text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
}

/** Discord Markdown: every formatting character backslash-escaped (links need [ ] ( )), mentions broken. */
export function escapeDiscord(text: string): string {
  return breakMentions(text.replace(/[\\`*_~|>[\]()#<:-]/g, (char) => `\\${char}`));
}

/** Teams Adaptive Card TextBlock Markdown: formatting characters escaped, no HTML, mentions broken. */
export function escapeTeams(text: string): string {
  return breakMentions(text.replace(/[\\`*_~[\]()#<>]/g, (char) => `\\${char}`));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
