import { ListReleasesInput, ReleaseEnvironmentsInput, ReleaseInput, SuspectCommitsInput } from "../../shared/release.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./release.service";

/** A project's releases (issue 34): the list, one release, its environments, and an issue's suspect commits. */
export const releaseRouter = router({
  list: orgProcedure.input(ListReleasesInput).query(({ ctx, input }) => service.listReleases(ctx, input)),
  detail: orgProcedure.input(ReleaseInput).query(({ ctx, input }) => service.getRelease(ctx, input)),
  environments: orgProcedure.input(ReleaseEnvironmentsInput).query(({ ctx, input }) => service.listReleaseEnvironments(ctx, input)),
  suspectCommits: orgProcedure.input(SuspectCommitsInput).query(({ ctx, input }) => service.getSuspectCommits(ctx, input)),
});
