import { sql } from "drizzle-orm";
import { generations } from "../../platform/db/schema";

/**
 * The generations whose `service_credits` the service took: a task is billed
 * only when it completed (we then hold its outputs); a dub in parts records
 * only the parts the service dubbed, whether the dub completed or not.
 */
export const billedByService = sql`(${generations.outputs} is not null or ${generations.partsTotal} is not null)`;
