import { DeleteReleaseSourceMapsInput, ListSourceMapBundlesInput, SourceMapBundleInput } from "../../shared/source-map.inputs";
import { DeletedSourceMapBundles, SourceMapBundleList } from "../../shared/source-map.views";
import { queryOf } from "../rest/input";
import { PROJECT_PATH, type RestRoute } from "../rest/rest-route";
import * as service from "./source-map-bundle.service";

const SOURCE_MAPS = `${PROJECT_PATH}/source-maps`;
const tag = "Source maps";

/** REST twins of sourceMap.* (tRPC): the artifact bundles sentry-cli and the bundler plugins uploaded for a project. */
export const sourceMapRestRoutes: RestRoute[] = [
  {
    method: "get",
    path: SOURCE_MAPS,
    summary: "List the project's uploaded source-map bundles, newest first (at most 200), optionally of one release and dist",
    tag,
    input: ListSourceMapBundlesInput,
    output: SourceMapBundleList,
    response: "Bundles with release, dist, file count, size and upload time",
    access: "organization",
    tokenScope: "project:read",
    handler: (ctx, req) => service.listSourceMapBundles(ctx, ListSourceMapBundlesInput.parse(queryOf(req))),
  },
  {
    method: "delete",
    path: SOURCE_MAPS,
    summary: "Delete every bundle of one release (`?release=`, and `&dist=` for a dist; without it the bundles without a dist)",
    tag,
    input: DeleteReleaseSourceMapsInput,
    output: DeletedSourceMapBundles,
    response: "How many bundles were deleted",
    access: "organization",
    tokenScope: "project:releases",
    permission: "release:manage",
    handler: (ctx, req) => service.deleteReleaseSourceMaps(ctx, DeleteReleaseSourceMapsInput.parse(queryOf(req))),
  },
  {
    method: "delete",
    path: `${SOURCE_MAPS}/:bundleId`,
    summary: "Delete one bundle",
    tag,
    input: SourceMapBundleInput,
    output: DeletedSourceMapBundles,
    response: "How many bundles were deleted (1)",
    access: "organization",
    tokenScope: "project:releases",
    permission: "release:manage",
    handler: (ctx, req) => service.deleteSourceMapBundle(ctx, SourceMapBundleInput.parse(queryOf(req))),
  },
];
