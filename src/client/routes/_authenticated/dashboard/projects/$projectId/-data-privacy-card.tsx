import { useMemo } from "react";
import { trpc } from "@/client/lib/trpc";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { usePermissions } from "@/client/lib/use-permissions";
import { DataPrivacyCard } from "@/client/components/data-settings/data-privacy-card";
import type { SettingKey } from "@/client/components/data-settings/data-settings-editor";

const KEYS: SettingKey[] = ["scrubDefaults", "storeIpAddresses", "sensitiveFields", "safeFields", "rules"];

/** Project settings → Data & privacy: overrides of the organization's scrubbing, field by field. */
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
            },
            inherited: data.organization,
            scrubbedToday: data.scrubbedToday,
          }
        : undefined,
    [data],
  );
  return (
    <DataPrivacyCard
      title="Data & privacy"
      description="This project's scrubbing: what it does not override follows the organization's data settings."
      testId="project-data-privacy"
      query={{ isPending: settings.isPending, error: settings.error, refetch: settings.refetch, data: loaded }}
      save={(layer) => update.mutateAsync({ projectId, ...layer })}
      saving={update.isPending}
      canEdit={can("organization:update")}
    />
  );
}
