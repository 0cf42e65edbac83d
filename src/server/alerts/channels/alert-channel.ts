import type { Mailer } from "../../auth/mailer";
import type { Db } from "../../db/client";
import type { alertActions, alertNotifications } from "../../db/schema/index";
import type { OutboundHttp } from "../../outbound/outbound-http";
import type { SecretBox } from "../../secrets/secret-box";
import type { AlertMessage } from "../alert-message";

/** What the channels reach the outside through. */
export interface ChannelDeps {
  db: Db;
  mailer: Mailer;
  outbound: OutboundHttp;
  secretBox: SecretBox;
}

/** One recorded notification to send through its action, with the message it says. */
export interface ChannelDelivery {
  deps: ChannelDeps;
  notification: typeof alertNotifications.$inferSelect;
  action: typeof alertActions.$inferSelect;
  message: AlertMessage;
}

/** "no recipients": nobody was left to send to (the notification is marked suppressed, not sent). */
export type ChannelOutcome = "sent" | "no recipients";

/**
 * How one kind of alert action sends. Resolves once the channel accepted the notification; throws
 * to have it retried, or a PermanentDeliveryError when no retry can help.
 */
export interface ChannelDefinition {
  send(delivery: ChannelDelivery): Promise<ChannelOutcome>;
}

/** A failure worth no retry: the receiver refused the request itself, or the action cannot be sent. */
export class PermanentDeliveryError extends Error {}
