import { useMemo } from "react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { usePermissions } from "@/client/lib/use-permissions";
import { DataPrivacyCard } from "@/client/components/data-settings/data-privacy-card";
import { retentionDraft } from "@/client/components/data-settings/retention-field";

/** Organization settings → Data & privacy: the retention and scrubbing every project inherits unless it overrides. */
export function OrganizationDataPrivacyCard() {
  const { can } = usePermissions();
  const settings = trpc.dataSettings.organization.useQuery();
  const utils = trpc.useUtils();
  const update = useToastMutation(utils.client.dataSettings.updateOrganization.mutate, {
    refresh: (data) => utils.dataSettings.organization.setData(undefined, data),
    success: "Data settings saved",
    onError: () => {},
  });
  const data = settings.data;
  const loaded = useMemo(
    () =>
      data
        ? {
            initial: { values: data.effective, retention: retentionDraft(data.settings.retentionDays, data.retention.productDefault) },
            retention: {
              effectiveDays: data.effective.retentionDays,
              inheritedDays: data.retention.productDefault,
              overrideLabel: `Override the default (${data.retention.productDefault} days)`,
              limits: data.retention,
            },
            scrubbedToday: data.scrubbedToday,
          }
        : undefined,
    [data],
  );
  return (
    <DataPrivacyCard
      title="Data & privacy"
      description="How long exceptions are kept, and the scrubbing applied at ingest, before anything is stored, to every text an event carries. Projects inherit these unless they override them."
      testId="organization-data-privacy"
      query={{ isPending: settings.isPending, error: settings.error, refetch: settings.refetch, data: loaded }}
      save={(layer) => update.mutateAsync(layer)}
      saving={update.isPending}
      canEdit={can("organization:update")}
    />
  );
}
