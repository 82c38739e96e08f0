import { ledgerBench } from "./ledger";

/** Runs every benchmark and prints one JSON document. */
const started = new Date().toISOString();
const ledger = await ledgerBench();
process.stdout.write(`${JSON.stringify({ started, node: process.version, ledger }, null, 2)}\n`);
