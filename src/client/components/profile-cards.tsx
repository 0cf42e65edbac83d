import { Link } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { Loader2Icon } from "lucide-react";
import { UserName } from "@/shared/auth-forms";
import { ImageUrl } from "@/shared/text.inputs";
import { AvatarImageInput } from "@/shared/avatar";
import { authClient } from "@/client/lib/auth-client";
import { unwrap } from "@/client/lib/api-error";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { refreshSession, useRequiredSession } from "@/client/lib/session";
import { useZodForm } from "@/client/lib/use-zod-form";
import { FormField, invalidProps } from "./form-field";
import { ThemeChoice } from "./theme-toggle";
import { UserAvatar } from "./user-avatar";
import { Button } from "./ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./ui/card";
import { Input } from "./ui/input";

const ProfileForm = z.object({
  name: UserName,
  // The server's rule: the value ends up in an <img src> that every viewer's browser fetches.
  image: z.union([z.literal(""), ImageUrl.pipe(AvatarImageInput)]),
});

/** Name and picture of the signed-in user (settings/profile and dashboard/profile). */
export function ProfileCard() {
  const { user } = useRequiredSession();
  const queryClient = useQueryClient();
  const form = useZodForm(ProfileForm, { name: user.name, image: user.image ?? "" });
  const save = useToastMutation(({ name, image }: z.infer<typeof ProfileForm>) => unwrap(authClient.updateUser({ name, image: image || null })), {
    refresh: () => refreshSession(queryClient),
    success: "Profile saved",
  });
  const saving = save.isPending;

  const onSubmit = form.handleSubmit((values) => save.mutate(values));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>How other members of your organizations see you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" noValidate onSubmit={onSubmit}>
          <div className="flex items-center gap-4">
            <UserAvatar
              name={form.values.name || user.name}
              image={ProfileForm.shape.image.safeParse(form.values.image).success ? form.values.image : null}
              className="size-14 text-base"
            />
            <div className="grid text-sm">
              <span className="font-medium">{user.email}</span>
              <Link to="/settings/account" className="text-muted-foreground underline-offset-4 hover:underline">
                Change email or password
              </Link>
            </div>
          </div>
          <FormField id="profile-name" label="Full name" error={form.errors.name}>
            <Input
              id="profile-name"
              data-testid="profile-name"
              autoComplete="name"
              value={form.values.name}
              onChange={(event) => form.setValue("name", event.target.value)}
              {...invalidProps("profile-name", form.errors.name)}
            />
          </FormField>
          <FormField id="profile-image" label="Picture URL (optional)" error={form.errors.image}>
            <Input
              id="profile-image"
              data-testid="profile-image"
              type="url"
              placeholder="https://…"
              value={form.values.image}
              onChange={(event) => form.setValue("image", event.target.value.trim())}
              {...invalidProps("profile-image", form.errors.image)}
            />
          </FormField>
          <Button type="submit" className="justify-self-start" disabled={saving} data-testid="profile-submit">
            {saving ? <Loader2Icon className="animate-spin" /> : null}
            Save profile
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function ThemeCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Stored in this browser. System follows your operating system's setting.</CardDescription>
      </CardHeader>
      <CardContent>
        <ThemeChoice />
      </CardContent>
    </Card>
  );
}
