/** Every benchmark, one after another; exits 1 when one misses its limit. */
import { printIngestResult, runFileUrlIngestBench } from "./file-url-ingest.ts";
import { printFolderViewResult, runFolderViewBench } from "./folder-view.ts";
import { printPortalListResult, runPortalListBench } from "./portal-list.ts";

const ingest = await runFileUrlIngestBench();
printIngestResult(ingest);
const folders = await runFolderViewBench();
printFolderViewResult(folders);
const list = await runPortalListBench();
printPortalListResult(list);
process.exit(ingest.passed && folders.passed && list.passed ? 0 : 1);
