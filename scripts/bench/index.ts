/** Every benchmark, one after another; exits 1 when one misses its limit. */
import { printIngestResult, runFileUrlIngestBench } from "./file-url-ingest.ts";
import { printFolderViewResult, runFolderViewBench } from "./folder-view.ts";

const ingest = await runFileUrlIngestBench();
printIngestResult(ingest);
const folders = await runFolderViewBench();
printFolderViewResult(folders);
const partnerPushPassed = await (await import("./partner-push.ts")).partnerPushBench();
process.exit(ingest.passed && folders.passed && partnerPushPassed ? 0 : 1);
