import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../platform/db/client";
import { type GroupAccess, groupAccessModes, groupSettings } from "../../platform/db/schema";
import { type Operation, operations } from "../../platform/media-service/catalog";

/** The operations a group's admins can switch on or off, in the order the settings show them. */
export const groupOperations = operations;

export interface GroupPolicy {
  disabled: ReadonlySet<Operation>;
  access: GroupAccess;
}

/** No row: everything on, everyone may use the bot. */
export const defaultGroupPolicy: GroupPolicy = { disabled: new Set(), access: "everyone" };

const storedRow = z.object({
  disabledOperations: z.array(z.string()).catch([]),
  access: z.enum(groupAccessModes).catch("everyone"),
});

export interface GroupSettings {
  get(chatId: number): Promise<GroupPolicy>;
  /** switches one operation on or off (setting what already is changes nothing) */
  setOperation(chatId: number, operation: Operation, enabled: boolean, by: number): Promise<GroupPolicy>;
  setAccess(chatId: number, access: GroupAccess, by: number): Promise<GroupPolicy>;
}

function policyOf(row: unknown): GroupPolicy {
  const parsed = storedRow.parse(row);
  const known = new Set<string>(groupOperations);
  const disabled = new Set(parsed.disabledOperations.filter((o): o is Operation => known.has(o)));
  return { disabled, access: parsed.access };
}

const columns = { disabledOperations: groupSettings.disabledOperations, access: groupSettings.access };

/**
 * What each group's admins decided, in `group_settings`. Every change is one
 * upsert that edits the stored list in place, so two admins switching
 * different operations at once both win.
 */
export function createGroupSettings(db: Database): GroupSettings {
  return {
    async get(chatId) {
      const [row] = await db.select(columns).from(groupSettings).where(eq(groupSettings.chatId, chatId));
      return row ? policyOf(row) : defaultGroupPolicy;
    },
    async setOperation(chatId, operation, enabled, by) {
      const current = sql`${groupSettings.disabledOperations}`;
      const list = enabled
        ? sql`${current} - ${operation}::text`
        : sql`case when ${current} @> jsonb_build_array(${operation}::text) then ${current} else ${current} || jsonb_build_array(${operation}::text) end`;
      const [row] = await db
        .insert(groupSettings)
        .values({ chatId, disabledOperations: enabled ? [] : [operation], updatedBy: by })
        .onConflictDoUpdate({
          target: groupSettings.chatId,
          set: { disabledOperations: list, updatedBy: by, updatedAt: sql`now()` },
        })
        .returning(columns);
      return policyOf(row);
    },
    async setAccess(chatId, access, by) {
      const [row] = await db
        .insert(groupSettings)
        .values({ chatId, access, updatedBy: by })
        .onConflictDoUpdate({
          target: groupSettings.chatId,
          set: { access, updatedBy: by, updatedAt: sql`now()` },
        })
        .returning(columns);
      return policyOf(row);
    },
  };
}
