import { useMemo } from "react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { usePermissions } from "@/client/lib/use-permissions";
import { DataPrivacyCard } from "@/client/components/data-settings/data-privacy-card";
import type { SettingKey } from "@/client/components/data-settings/data-settings-editor";
import { retentionDraft } from "@/client/components/data-settings/retention-field";

const KEYS: SettingKey[] = ["scrubDefaults", "storeIpAddresses", "sensitiveFields", "safeFields", "rules"];

/** Project settings → Data & privacy: overrides of the organization's retention and scrubbing, field by field. */
export function ProjectDataPrivacyCard({ projectId }: { projectId: string }) {
  const { can } = usePermissions();
  const settings = trpc.dataSettings.project.useQuery({ projectId });
  const utils = trpc.useUtils();
  const update = useToastMutation(utils.client.dataSettings.updateProject.mutate, {
    refresh: (data) => utils.dataSettings.project.setData({ projectId }, data),
    success: "Project data settings saved",
    onError: () => {},
  });
  const data = settings.data;
  const loaded = useMemo(
    () =>
      data
        ? {
            initial: {
              values: data.effective,
              overridden: Object.fromEntries(KEYS.map((key) => [key, data.overrides[key] !== null])) as Record<SettingKey, boolean>,
              retention: retentionDraft(data.overrides.retentionDays, data.organization.retentionDays),
            },
            inherited: data.organization,
            retention: {
              effectiveDays: data.effective.retentionDays,
              inheritedDays: data.organization.retentionDays,
              overrideLabel: "Override the organization",
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
      description="This project's retention and scrubbing: what it does not override follows the organization's data settings."
      testId="project-data-privacy"
      query={{ isPending: settings.isPending, error: settings.error, refetch: settings.refetch, data: loaded }}
      save={(layer) => update.mutateAsync({ projectId, ...layer })}
      saving={update.isPending}
      canEdit={can("organization:update")}
    />
  );
}
