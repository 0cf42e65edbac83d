import { clip, factsOf, headlineOf, type AlertMessage } from "../alert-message";
import { escapeTeams } from "./escape";

/** A Microsoft Teams incoming-webhook (Workflows) body: an Adaptive Card with escaped text. */
export function teamsBody(message: AlertMessage) {
  const headline = headlineOf(message);
  const issue = message.issue;
  const body: unknown[] = [
    { type: "TextBlock", text: escapeTeams(clip(headline, 300)), weight: "Bolder", size: "Medium", wrap: true },
    { type: "TextBlock", text: escapeTeams(clip(issue?.title ?? "", 300)), wrap: true },
  ];
  if (issue?.culprit) body.push({ type: "TextBlock", text: escapeTeams(clip(issue.culprit, 300)), isSubtle: true, wrap: true });
  body.push({ type: "FactSet", facts: factsOf(message).map(([title, value]) => ({ title, value: escapeTeams(clip(value, 300)) })) });
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body,
          actions: [{ type: "Action.OpenUrl", title: "Open in Faultline", url: message.url }],
        },
      },
    ],
  };
}
