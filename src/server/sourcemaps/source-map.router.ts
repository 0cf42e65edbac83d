import { DeleteReleaseSourceMapsInput, ListSourceMapBundlesInput, SourceMapBundleInput } from "../../shared/source-map.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./source-map-bundle.service";

/** A project's uploaded source-map bundles (issue 33): list, delete one, delete a release's. */
export const sourceMapRouter = router({
  list: orgProcedure.input(ListSourceMapBundlesInput).query(({ ctx, input }) => service.listSourceMapBundles(ctx, input)),
  delete: orgProcedure.input(SourceMapBundleInput).mutation(({ ctx, input }) => service.deleteSourceMapBundle(ctx, input)),
  deleteRelease: orgProcedure.input(DeleteReleaseSourceMapsInput).mutation(({ ctx, input }) => service.deleteReleaseSourceMaps(ctx, input)),
});
