import { ledgerBench } from "./ledger";
import { pipelineBench } from "./pipeline";

/** Runs every benchmark and prints one JSON document. */
const started = new Date().toISOString();
const ledger = await ledgerBench();
const pipeline = await pipelineBench();
process.stdout.write(`${JSON.stringify({ started, node: process.version, ledger, pipeline }, null, 2)}\n`);
process.exit(0);
