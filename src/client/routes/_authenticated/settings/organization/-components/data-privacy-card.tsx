import { useMemo } from "react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { usePermissions } from "@/client/lib/use-permissions";
import { DataPrivacyCard } from "@/client/components/data-settings/data-privacy-card";

/** Organization settings → Data & privacy: the scrubbing every project inherits unless it overrides. */
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
  const loaded = useMemo(() => (data ? { initial: { values: data.effective }, scrubbedToday: data.scrubbedToday } : undefined), [data]);
  return (
    <DataPrivacyCard
      title="Data & privacy"
      description="Scrubbing applied at ingest, before anything is stored, to every text an event carries. Projects inherit these unless they override them."
      testId="organization-data-privacy"
      query={{ isPending: settings.isPending, error: settings.error, refetch: settings.refetch, data: loaded }}
      save={(layer) => update.mutateAsync(layer)}
      saving={update.isPending}
      canEdit={can("organization:update")}
    />
  );
}
