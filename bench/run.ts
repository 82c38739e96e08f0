import { ledgerBench } from "./ledger";
import { pipelineBench } from "./pipeline";

/** Runs the in-process benchmarks (ledger, pipeline) and prints one JSON document; the others run as npm scripts of their own. */
const started = new Date().toISOString();
const ledger = await ledgerBench();
const pipeline = await pipelineBench();
process.stdout.write(`${JSON.stringify({ started, node: process.version, ledger, pipeline }, null, 2)}\n`);
process.exit(0);
