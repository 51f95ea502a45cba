/** Every benchmark, one after another; exits 1 when one misses its limit. */
import { printIngestResult, runFileUrlIngestBench } from "./file-url-ingest.ts";

const ingest = await runFileUrlIngestBench();
printIngestResult(ingest);
process.exit(ingest.passed ? 0 : 1);
