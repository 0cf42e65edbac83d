import { z } from "zod";
import { ProjectIdInput } from "./project.inputs";

const Release = z.string().trim().min(1, "Please name a release").max(250, "Release versions are at most 250 characters");
const Dist = z.string().trim().min(1).max(64, "Dists are at most 64 characters");

/** A project's uploaded source-map bundles, newest first; optionally of one release (and dist). */
export const ListSourceMapBundlesInput = ProjectIdInput.extend({
  release: Release.optional(),
  dist: Dist.optional(),
});
export type ListSourceMapBundlesInput = z.infer<typeof ListSourceMapBundlesInput>;

export const SourceMapBundleInput = ProjectIdInput.extend({ bundleId: z.uuid("Invalid bundle id") });
export type SourceMapBundleInput = z.infer<typeof SourceMapBundleInput>;

/** Every bundle of one release (and dist; absent: the bundles without a dist) of the project. */
export const DeleteReleaseSourceMapsInput = ProjectIdInput.extend({ release: Release, dist: Dist.optional() });
export type DeleteReleaseSourceMapsInput = z.infer<typeof DeleteReleaseSourceMapsInput>;
