import { emailRecipients } from "../alert-recipients";
import type { EmailRecipients } from "../alert-rule.view";
import type { ChannelDefinition } from "./alert-channel";
import { alertEmail } from "./email";

/** Email to the members the action addresses who have not opted out. */
export const emailChannel: ChannelDefinition = {
  async send({ deps, notification, action, message }) {
    const recipients = JSON.parse(action.recipients ?? '{"to":"members"}') as EmailRecipients;
    const to = await emailRecipients(deps.db, notification.organizationId, notification.projectId, recipients);
    if (to.length === 0) return "no recipients";
    const mail = alertEmail(message);
    // One mail per recipient: members do not see each other's addresses.
    for (const address of to)
      await deps.mailer.send({ kind: "alert", to: address, subject: mail.subject, text: mail.text, html: mail.html, actionUrl: message.url });
    return "sent";
  },
};
