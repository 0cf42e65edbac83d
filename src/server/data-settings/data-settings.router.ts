import { ProjectDataSettingsInput, UpdateOrganizationDataSettingsInput, UpdateProjectDataSettingsInput } from "../../shared/data-settings.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./data-settings.service";

/** Data settings (issue 35): scrubbing per organization, with per-project overrides. */
export const dataSettingsRouter = router({
  organization: orgProcedure.query(({ ctx }) => service.getOrganizationDataSettings(ctx)),
  updateOrganization: orgProcedure.input(UpdateOrganizationDataSettingsInput).mutation(({ ctx, input }) => service.updateOrganizationDataSettings(ctx, input)),
  project: orgProcedure.input(ProjectDataSettingsInput).query(({ ctx, input }) => service.getProjectDataSettings(ctx, input)),
  updateProject: orgProcedure.input(UpdateProjectDataSettingsInput).mutation(({ ctx, input }) => service.updateProjectDataSettings(ctx, input)),
});
