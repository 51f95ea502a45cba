/** Every benchmark, one after another; exits 1 when one misses its limit. */
import { printIngestResult, runFileUrlIngestBench } from "./file-url-ingest.ts";
import { printFolderViewResult, runFolderViewBench } from "./folder-view.ts";

const ingest = await runFileUrlIngestBench();
printIngestResult(ingest);
const folders = await runFolderViewBench();
printFolderViewResult(folders);
process.exit(ingest.passed && folders.passed ? 0 : 1);
