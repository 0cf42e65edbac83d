import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "@/client/components/page-header";
import { ProfileCard, ThemeCard } from "@/client/components/profile-cards";
import { AlertEmailsCard } from "./-profile/alert-emails-card";

export const Route = createFileRoute("/_authenticated/settings/profile")({
  component: SettingsProfileScreen,
});

function SettingsProfileScreen() {
  return (
    <div className="grid max-w-3xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Profile" description="Your name, picture and how Faultline looks." />
      <ProfileCard />
      <ThemeCard />
      <AlertEmailsCard />
    </div>
  );
}
