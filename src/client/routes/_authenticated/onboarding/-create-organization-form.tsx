import { useState } from "react";
import { useRouter } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Loader2Icon } from "lucide-react";
import { CreateOrganizationInput } from "@/shared/organization.inputs";
import { authClient } from "@/client/lib/auth-client";
import { unwrap, errorMessage } from "@/client/lib/api-error";
import { slugify, switchOrganization } from "@/client/lib/organization";
import { useZodForm } from "@/client/lib/use-zod-form";
import { FormField, invalidProps } from "@/client/components/form-field";
import { FormError } from "@/client/components/form-alert";
import { Button } from "@/client/components/ui/button";
import { Input } from "@/client/components/ui/input";

interface Props {
  onCreated: (organization: { id: string; name: string }) => void;
}

export function CreateOrganizationForm({ onCreated }: Props) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const form = useZodForm(CreateOrganizationInput, { name: "", slug: "" });
  // The slug follows the name until the user edits it.
  const [slugEdited, setSlugEdited] = useState(false);
  const [apiError, setApiError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onNameChange = (name: string) => {
    form.setValue("name", name);
    if (!slugEdited) form.setValue("slug", slugify(name));
  };

  /**
   * Slugs are unique per installation. A suggested slug that is taken gets a short random suffix;
   * one the user typed is left for them to change.
   */
  const availableSlug = async (slug: string): Promise<string | null> => {
    const { error } = await authClient.organization.checkSlug({ slug });
    if (!error) return slug;
    if (slugEdited) return null;
    const suffixed = `${slug.slice(0, 43)}-${Math.random().toString(36).slice(2, 6)}`;
    form.setValue("slug", suffixed);
    return suffixed;
  };

  const onSubmit = form.handleSubmit(async ({ name, slug: requestedSlug }) => {
    setSubmitting(true);
    setApiError(null);
    try {
      const slug = await availableSlug(requestedSlug);
      if (!slug) {
        setApiError("This URL name is already taken. Please choose another one.");
        return;
      }
      const organization = await unwrap(authClient.organization.create({ name, slug }));
      if (!organization) throw new Error("The organization could not be created");
      await switchOrganization(queryClient, organization.id);
      // The authenticated layout resolves the active organization in its beforeLoad.
      await router.invalidate();
      onCreated({ id: organization.id, name: organization.name });
    } catch (error) {
      setApiError(errorMessage(error, "The organization could not be created"));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <form className="grid gap-4" noValidate onSubmit={onSubmit}>
      <FormError message={apiError} />
      <FormField id="onboarding-org-name" label="Organization name" error={form.errors.name}>
        <Input
          id="onboarding-org-name"
          data-testid="onboarding-org-name"
          placeholder="Acme Inc."
          autoComplete="organization"
          value={form.values.name}
          onChange={(event) => onNameChange(event.target.value)}
          {...invalidProps("onboarding-org-name", form.errors.name)}
        />
      </FormField>
      <FormField
        id="onboarding-org-slug"
        label="URL name"
        error={form.errors.slug}
        hint="Lowercase letters, digits and dashes; unique across this installation."
      >
        <Input
          id="onboarding-org-slug"
          data-testid="onboarding-org-slug"
          placeholder="acme"
          value={form.values.slug}
          onChange={(event) => {
            setSlugEdited(true);
            form.setValue("slug", event.target.value.toLowerCase());
          }}
          {...invalidProps("onboarding-org-slug", form.errors.slug)}
        />
      </FormField>
      <Button type="submit" data-testid="onboarding-org-submit" disabled={submitting} className="justify-self-start">
        {submitting ? <Loader2Icon className="animate-spin" /> : null}
        Create organization
      </Button>
    </form>
  );
}
