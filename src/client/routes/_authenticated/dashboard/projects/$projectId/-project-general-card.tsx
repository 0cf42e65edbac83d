import { Loader2Icon } from "lucide-react";
import { z } from "zod";
import { ProjectName } from "@/shared/project.inputs";
import { ProjectSlug } from "@/shared/project-slug";
import { PLATFORM_LABELS } from "@/shared/platforms";
import { usePermissions } from "@/client/lib/use-permissions";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { useZodForm } from "@/client/lib/use-zod-form";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { CopyableIds } from "@/client/components/copyable-ids";
import { FormField, invalidProps } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input, Textarea } from "@/client/components/ui/input";

const RenameForm = z.object({
  name: ProjectName,
  slug: ProjectSlug,
  description: z.string().trim().max(500, "Descriptions are at most 500 characters"),
});

export function ProjectGeneralCard({ project }: { project: ProjectView }) {
  const { can, refusal } = usePermissions();
  const canManage = can("project:update");
  const utils = trpc.useUtils();
  const form = useZodForm(RenameForm, { name: project.name, slug: project.slug, description: project.description ?? "" });
  const rename = useToastMutation(utils.client.project.rename.mutate, {
    refresh: async (updated) => {
      utils.project.get.setData({ projectId: updated.id }, updated);
      await utils.project.list.invalidate();
    },
    success: "Project updated",
  });

  const onSubmit = form.handleSubmit(({ name, slug, description }) => rename.mutate({ projectId: project.id, name, slug, description: description || null }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>General</CardTitle>
        <CardDescription>
          Project #{project.number} · {PLATFORM_LABELS[project.platform] ?? project.platform} · created {project.createdAt.toLocaleDateString()}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <CopyableIds
            testId="project-ids"
            ids={[
              { label: "Project id", value: project.id, testId: "project-id" },
              { label: "Number", value: String(project.number), testId: "project-number" },
              { label: "Slug", value: project.slug, testId: "project-slug" },
            ]}
          />
          <p className="text-sm text-muted-foreground">
            The REST API (<code>/api/v1/organizations/…/projects/…</code>) takes any of the three.
          </p>
        </div>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <FormField id="project-settings-name" label="Name" error={form.errors.name}>
            <Input
              id="project-settings-name"
              data-testid="project-settings-name"
              disabled={!canManage}
              value={form.values.name}
              onChange={(event) => form.setValue("name", event.target.value)}
              {...invalidProps("project-settings-name", form.errors.name)}
            />
          </FormField>
          <FormField
            id="project-settings-slug"
            label="Slug"
            error={form.errors.slug}
            hint="The project's name in URLs and for sentry-cli (SENTRY_PROJECT); the project number works too."
          >
            <Input
              id="project-settings-slug"
              data-testid="project-settings-slug"
              disabled={!canManage}
              value={form.values.slug}
              onChange={(event) => form.setValue("slug", event.target.value)}
              {...invalidProps("project-settings-slug", form.errors.slug)}
            />
          </FormField>
          <FormField id="project-settings-description" label="Description" error={form.errors.description}>
            <Textarea
              id="project-settings-description"
              rows={3}
              disabled={!canManage}
              value={form.values.description}
              onChange={(event) => form.setValue("description", event.target.value)}
              {...invalidProps("project-settings-description", form.errors.description)}
            />
          </FormField>
          {canManage ? (
            <Button type="submit" className="justify-self-start" disabled={rename.isPending} data-testid="project-settings-save">
              {rename.isPending ? <Loader2Icon className="animate-spin" /> : null}
              Save
            </Button>
          ) : refusal("project:update") ? (
            <p className="text-sm text-muted-foreground">{refusal("project:update")}.</p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
