import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client";
import { chats, generations, type ReportActionRecord, resultReports, users } from "../../platform/db/schema";

export type ResultReport = typeof resultReports.$inferSelect;

/** How a member's report was taken: the result's first, another member's, or this member's again. */
export type Reported = "first" | "added" | "already";

/** Reports of results in groups (result_reports): each member reports a result once; admins' actions are appended. */
export function createReportStore(db: Database) {
  return {
    /** `messageId`: the message the report was pressed on (kept from the first report). */
    async report(
      result: { id: string; chatId: number; makerId: number; messageId: number | undefined },
      reporterId: number,
    ): Promise<Reported> {
      const [row] = await db
        .insert(resultReports)
        .values({
          generationId: result.id,
          chatId: result.chatId,
          messageId: result.messageId ?? null,
          makerId: result.makerId,
          reporterIds: [reporterId],
        })
        .onConflictDoUpdate({
          target: resultReports.generationId,
          set: { reporterIds: sql`array_append(${resultReports.reporterIds}, ${reporterId}::bigint)` },
          setWhere: sql`not (${reporterId}::bigint = any(${resultReports.reporterIds}))`,
        })
        .returning({ inserted: sql<boolean>`xmax = 0` });
      if (!row) return "already";
      return row.inserted ? "first" : "added";
    },

    async get(generationId: string): Promise<ResultReport | undefined> {
      const [row] = await db.select().from(resultReports).where(eq(resultReports.generationId, generationId));
      return row;
    },

    /** Records an admin's action and closes the report (an action after the first is recorded too). */
    async act(generationId: string, record: ReportActionRecord): Promise<void> {
      await db
        .update(resultReports)
        .set({
          actions: sql`${resultReports.actions} || ${JSON.stringify([record])}::jsonb`,
          state: "closed",
          closedAt: sql`coalesce(${resultReports.closedAt}, now())`,
        })
        .where(eq(resultReports.generationId, generationId));
    },

    /** The open reports, newest first, with the result's prompt, its maker and the group (the Mini App's admin tab). */
    open(limit = 50) {
      return db
        .select({
          generationId: resultReports.generationId,
          createdAt: resultReports.createdAt,
          reporterIds: resultReports.reporterIds,
          makerId: resultReports.makerId,
          makerUsername: users.username,
          makerFirstName: users.firstName,
          group: chats.title,
          operation: generations.operation,
          params: generations.params,
        })
        .from(resultReports)
        .leftJoin(generations, eq(generations.id, resultReports.generationId))
        .leftJoin(users, eq(users.id, resultReports.makerId))
        .leftJoin(chats, eq(chats.id, resultReports.chatId))
        .where(eq(resultReports.state, "open"))
        .orderBy(desc(resultReports.createdAt))
        .limit(limit);
    },
  };
}
export type ReportStore = ReturnType<typeof createReportStore>;
