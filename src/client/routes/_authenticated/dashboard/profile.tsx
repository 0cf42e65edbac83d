import { createFileRoute } from "@tanstack/react-router";
import { PageHeader } from "@/client/components/page-header";
import { ProfileCard, ThemeCard } from "@/client/components/profile-cards";

export const Route = createFileRoute("/_authenticated/dashboard/profile")({
  component: DashboardProfileScreen,
});

function DashboardProfileScreen() {
  return (
    <div className="mx-auto grid max-w-3xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Profile" description="Your name, picture and how Faultline looks." />
      <ProfileCard />
      <ThemeCard />
    </div>
  );
}
