import { desc, eq } from "drizzle-orm";
import type { Ledger } from "../../domain/credits/ledger";
import { latestEntries } from "../../domain/credits/recent-entries";
import { userLabel } from "../../domain/users/user-label";
import type { UserRecord } from "../../domain/users/users";
import type { Database } from "../../platform/db/client";
import { generations } from "../../platform/db/schema";
import type { Translate } from "../../platform/i18n/i18n";

const shownEntries = 8;
const shownGenerations = 8;

export interface UserReport {
  user: UserRecord;
  available: number;
  held: number;
  entries: Array<{ kind: string; delta: number; held: number; note: string | null; at: Date }>;
  generations: Array<{ id: string; operation: string; state: string; price: number; at: Date }>;
}

export async function collectUserReport(
  db: Database,
  ledger: Pick<Ledger, "account">,
  user: UserRecord,
): Promise<UserReport> {
  const account = await ledger.account(user.id);
  const entries = (await latestEntries(db, user.id, shownEntries)).map((e) => ({
    kind: e.kind,
    delta: e.deltaAvailable,
    held: e.deltaHeld,
    note: e.note,
    at: e.createdAt,
  }));
  const recent = await db
    .select({
      id: generations.id,
      operation: generations.operation,
      state: generations.state,
      price: generations.price,
      at: generations.createdAt,
    })
    .from(generations)
    .where(eq(generations.userId, user.id))
    .orderBy(desc(generations.createdAt))
    .limit(shownGenerations);
  return {
    user,
    available: account.available,
    held: account.held,
    entries,
    generations: recent,
  };
}

const day = (at: Date) => at.toISOString().slice(0, 16).replace("T", " ");
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function formatUserReport(t: Translate, r: UserReport): string {
  const u = r.user;
  const lines = [
    t("user-title", { user: userLabel(u), language: u.language }),
    t("user-balance", { available: r.available, held: r.held }),
    u.bannedAt ? t("user-banned", { since: day(u.bannedAt) }) : t("user-not-banned"),
  ];
  if (u.blockedAt) lines.push(t("user-blocked", { since: day(u.blockedAt) }));
  lines.push(t("user-seen", { first: day(u.firstSeenAt), last: day(u.lastSeenAt) }));
  lines.push("", t("user-entries"));
  if (r.entries.length === 0) lines.push(t("stats-none"));
  for (const e of r.entries) {
    const held = e.held === 0 ? "" : ` (${t("user-held-delta", { delta: signed(e.held) })})`;
    const note = e.note ? ` — ${e.note.slice(0, 60)}` : "";
    lines.push(`${day(e.at)} ${e.kind} ${signed(e.delta)}${held}${note}`);
  }
  lines.push("", t("user-generations"));
  if (r.generations.length === 0) lines.push(t("stats-none"));
  for (const g of r.generations) {
    lines.push(
      `${day(g.at)} ${t(`op-${g.operation}`)}: ${t(`stats-state-${g.state}`)} · ${t("user-price", { price: g.price })} · ${g.id.slice(0, 8)}`,
    );
  }
  return lines.join("\n");
}
