/**
 * `npm run lint`'s folder-cycle check: the import graph between folders (folder-graph.ts) has no
 * cycle. Prints each cycle with an import that closes it, and exits 1 when there is one.
 */
import { fileURLToPath } from "node:url";
import { describeCycle, folderCycles, folderGraph, productionFiles } from "./folder-graph.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const graph = folderGraph(productionFiles(root));
const cycles = folderCycles(graph);
for (const cycle of cycles) console.error(`folder cycle: ${describeCycle(graph, cycle)}`);
if (cycles.length > 0) process.exit(1);
console.log(`No folder cycles (${graph.size} folders).`);
