import { Loader2Icon } from "lucide-react";
import { CreateProjectInput } from "@/shared/project.inputs";
import { PLATFORMS, PLATFORM_LABELS, type Platform } from "@/shared/platforms";
import { trpc, type ProjectView } from "@/client/lib/trpc";
import { useZodForm } from "@/client/lib/use-zod-form";
import { errorMessage } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { FormField, invalidProps } from "./form-field";
import { FormError } from "./form-alert";
import { Button } from "./ui/button";
import { Input, Textarea } from "./ui/input";
import { NativeSelect } from "./ui/select";

interface Props {
  onCreated: (project: ProjectView) => unknown;
  submitLabel?: string;
}

/** Creates a project in the active organization (used by onboarding and "New project"). */
export function CreateProjectForm({ onCreated, submitLabel = "Create project" }: Props) {
  const utils = trpc.useUtils();
  // The platform starts unset so the user picks one consciously.
  const form = useZodForm(CreateProjectInput, { name: "", platform: "" as Platform, description: "" });
  const create = useToastMutation(utils.client.project.create.mutate, {
    refresh: async (project) => {
      await utils.project.list.invalidate();
      utils.project.get.setData({ projectId: project.id }, project);
    },
    success: (project) => `Project ${project.name} created`,
    onSuccess: onCreated,
    // The form shows the refusal above its fields (create.error), not in a toast.
    onError: () => undefined,
  });

  const onSubmit = form.handleSubmit((input) => create.mutate({ ...input, description: input.description || undefined }));

  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit}>
      <FormError message={create.error ? errorMessage(create.error) : null} />
      <FormField id="project-name" label="Project name" error={form.errors.name}>
        <Input
          id="project-name"
          data-testid="project-name"
          placeholder="checkout-api"
          value={form.values.name}
          onChange={(event) => form.setValue("name", event.target.value)}
          {...invalidProps("project-name", form.errors.name)}
        />
      </FormField>
      <FormField id="project-platform" label="Platform" error={form.errors.platform}>
        <NativeSelect
          id="project-platform"
          data-testid="project-platform"
          value={form.values.platform}
          onChange={(event) => form.setValue("platform", event.target.value as Platform)}
          {...invalidProps("project-platform", form.errors.platform)}
        >
          <option value="" disabled>
            Choose a platform
          </option>
          {PLATFORMS.map((platform) => (
            <option key={platform} value={platform}>
              {PLATFORM_LABELS[platform]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id="project-description" label="Description (optional)" error={form.errors.description}>
        <Textarea
          id="project-description"
          data-testid="project-description"
          rows={3}
          value={form.values.description ?? ""}
          onChange={(event) => form.setValue("description", event.target.value)}
          {...invalidProps("project-description", form.errors.description)}
        />
      </FormField>
      <Button type="submit" data-testid="project-submit" disabled={create.isPending} className="justify-self-start">
        {create.isPending ? <Loader2Icon className="animate-spin" /> : null}
        {submitLabel}
      </Button>
    </form>
  );
}
