import { ALERT_CHANNELS, type AlertChannel } from "../../../shared/alert.inputs";
import type { ChannelDefinition } from "./alert-channel";
import { discordBody } from "./discord";
import { emailChannel } from "./email-channel";
import { slackBody } from "./slack";
import { teamsBody } from "./teams";
import { urlChannel } from "./url-channel";
import { webhookBody } from "./webhook";

/**
 * Every kind of alert action and how it sends, keyed by the shared list of channels
 * (`ALERT_CHANNELS`): a kind added there does not compile until it has its entry here.
 */
export const ALERT_CHANNEL_DEFINITIONS = {
  email: emailChannel,
  webhook: urlChannel(webhookBody, { signed: true }),
  slack: urlChannel(slackBody),
  discord: urlChannel(discordBody),
  teams: urlChannel(teamsBody),
} satisfies Record<AlertChannel, ChannelDefinition>;

/** The definition of a stored action's kind (the column is text), or null for a kind this version does not know. */
export function channelDefinition(kind: string): ChannelDefinition | null {
  const channel = ALERT_CHANNELS.find((known) => known === kind);
  return channel ? ALERT_CHANNEL_DEFINITIONS[channel] : null;
}
