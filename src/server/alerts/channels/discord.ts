import { clip, factsOf, headlineOf, type AlertMessage } from "../alert-message";
import { escapeDiscord } from "./escape";

const LEVEL_COLORS: Record<string, number> = { fatal: 0x7f1d1d, error: 0xdc2626, warning: 0xf59e0b, info: 0x2563eb, debug: 0x6b7280 };

/** A Discord webhook body: one embed; `allowed_mentions` empty so nothing in it can ping anyone. */
export function discordBody(message: AlertMessage) {
  const headline = headlineOf(message);
  const issue = message.issue;
  return {
    content: escapeDiscord(clip(headline, 300)),
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: escapeDiscord(clip(issue?.title ?? headline, 250)),
        url: message.url,
        ...(issue?.culprit ? { description: escapeDiscord(clip(issue.culprit, 1000)) } : {}),
        color: LEVEL_COLORS[issue?.level ?? "info"] ?? LEVEL_COLORS.info,
        fields: factsOf(message)
          .slice(0, 10)
          .map(([name, value]) => ({ name, value: escapeDiscord(clip(value, 1000)), inline: true })),
      },
    ],
  };
}
