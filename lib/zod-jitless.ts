import { config } from "zod";

// Imported (first) by browser code that bundles a library built on zod 4 (Scalar's API reference):
// without it, zod probes `new Function` to decide whether to compile its parsers, which the page's
// CSP refuses and the browser reports as a violation. The setting is global to every zod 4 copy.
config({ jitless: true });
