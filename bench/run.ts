import { ledgerBench } from "./ledger";
import { pipelineBench } from "./pipeline";
import { updatesBench } from "./updates";

/** Runs every benchmark and prints one JSON document. */
const started = new Date().toISOString();
const ledger = await ledgerBench();
const pipeline = await pipelineBench();
const updates = await updatesBench();
process.stdout.write(
  `${JSON.stringify({ started, node: process.version, ledger, pipeline, updates }, null, 2)}\n`,
);
process.exit(0);
