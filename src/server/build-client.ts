import { buildClient } from "./http/client-build";
import { createLogger } from "./logger";

// `npm run build`: the production client bundle in dist/client, with the stamp `npm start` checks.
buildClient(createLogger("info")).catch((error) => {
  process.stderr.write(`client build failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
