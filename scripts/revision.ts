/**
 * Writes REVISION (the repository's revision) beside the sources, so a build copied without `.git`
 * still reports its revision on /health. Run by `npm run build` and by the start command's build.
 */
import { writeRevisionFile } from "../src/server/core/git-sha";
import { PROJECT_ROOT } from "../src/server/core/project-root";

const sha = writeRevisionFile(PROJECT_ROOT);
console.log(sha ? `REVISION ${sha}` : "no .git here: REVISION left as it is");
