import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { and, eq } from "drizzle-orm";
import type { Message } from "grammy/types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TestUser } from "../../../sandbox/playground/telegram";
import type { GalleryResponse, ResultResponse } from "../../../src/features/miniapp/contract";
import { generations } from "../../../src/platform/db/schema";
import { historyShowData } from "../../../src/platform/telegram/callback-data";
import { signedLinks } from "../../../src/runtime/services";
import { defaultPolicy } from "../../../src/runtime/settings";
import { eventually, type Harness, startedUser, startHarness } from "../../support/harness";
import { buttons, byData, says } from "../../support/messages";
import { appClient } from "../../support/miniapp";
import { freshBucket, objectStoreUrl, testS3Client } from "../../support/object-store";

/**
 * The issue "media on an object store: web and worker processes on different
 * hosts", end to end. The web role and the worker role run as two processes
 * (test/support/worker-process.ts), each with a DATA_DIR of its own (two temp
 * directories: no disk in common), against one Postgres, one Redis, the
 * Telegram stand-in and the media service simulator (in this process).
 *
 * With a bucket (MEDIA_STORE=s3) everything a user does reaches them: an edit
 * of a photo sent through Telegram, a dub of an uploaded audio, a generated
 * image, /history's "show again", and the Mini App gallery's links. The
 * service fetches the inputs from the bucket by presigned links, never through
 * the web role. With MEDIA_STORE=local and the same two disks, what the worker
 * kept is not on the web role's disk: the dub's source link answers 410, so
 * the dub fails, and the gallery has no file to show.
 */
const fixture = (name: string) =>
  readFileSync(new URL(`../../../sandbox/simulator/fixtures/${name}`, import.meta.url));
/** how long an input link lives; not the file proxy's 3600 s, so the two kinds of link can be told apart */
const inputLinkSeconds = 900;
const policy = { inputLinkSeconds };

type GenerationRow = typeof generations.$inferSelect;

/** A web role and a worker role, each a process of its own with its own disk. */
interface SplitHosts {
  web: ChildProcess;
  worker: ChildProcess;
  webDir: string;
  workerDir: string;
}

async function splitHosts(h: Harness, storeEnv: Record<string, string>): Promise<SplitHosts> {
  const webDir = await mkdtemp(join(tmpdir(), "msb-web-host-"));
  const workerDir = await mkdtemp(join(tmpdir(), "msb-worker-host-"));
  // the web role (polling the Telegram stand-in) on the harness's PORT: its PUBLIC_URL, where the simulator's webhook and the Mini App reach it
  const [web, worker] = await Promise.all([
    h.spawnRuntime({ ...storeEnv, ROLE: "web", DATA_DIR: webDir }),
    h.spawnRuntime({ ...storeEnv, ROLE: "worker", PORT: "0", DATA_DIR: workerDir }),
  ]);
  return { web, worker, webDir, workerDir };
}

/** Every file below `dir`, by its path relative to it. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** The generation whose status message is `offer`, once it reached `state` (read from Postgres: no runtime runs here). */
async function generationAt(
  h: Harness,
  user: TestUser,
  offer: Message,
  state: string,
): Promise<GenerationRow> {
  try {
    return await eventually(async () => {
      const [g] = await h.db.db
        .select()
        .from(generations)
        .where(and(eq(generations.userId, user.id), eq(generations.statusMessageId, offer.message_id)));
      return g?.state === state ? g : undefined;
    }, 30_000);
  } catch {
    throw new Error(
      `the generation of offer ${offer.message_id} never reached ${state}\n${user.transcript()}`,
    );
  }
}

/** Presses ✅ on the first offer after `after`; returns it (it becomes the status message). */
async function confirmAfter(user: TestUser, after: Message): Promise<Message> {
  const offer = await user.waitFor((m) => buttons(m).some((b) => b.text.includes("✅")), { after });
  await user.press(/✅/, { message: offer });
  return offer;
}

/** The create request the simulator received for generation `gid`, as sent. */
function createBody(h: Harness, path: string, gid: string): { image_urls?: string[]; source_url?: string } {
  const creates = h.sim.requests.filter(
    (r) => r.method === "POST" && r.path === path && r.body.includes(gid),
  );
  expect(creates.length).toBeGreaterThan(0);
  return JSON.parse(creates.at(-1)!.body) as { image_urls?: string[]; source_url?: string };
}

/** The web process's file proxy answers (GET /files/<token>) so far, by status, from its own /metrics. */
async function fileProxyAnswers(h: Harness): Promise<Record<string, number>> {
  const text = await (await fetch(`${h.config.publicUrl}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("msb_http_requests_total{") || !line.includes('route="/files/:token"')) continue;
    const status = /status="(\d+)"/.exec(line)?.[1] ?? "?";
    counts[status] = (counts[status] ?? 0) + Number(line.split(" ").at(-1));
  }
  return counts;
}

/** The keys below `prefix` in `bucketName`, read with the SDK. */
async function keysUnder(bucketName: string, prefix: string): Promise<string[]> {
  const listed = await testS3Client().send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key ?? "");
}

const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe("media on an object store: the web and worker roles on different hosts", () => {
  let h: Harness;
  let hosts: SplitHosts;
  let bucket: Awaited<ReturnType<typeof freshBucket>>;

  beforeAll(async () => {
    bucket = await freshBucket();
    h = await startHarness({ noRuntime: true, policy });
    hosts = await splitHosts(h, bucket.env);
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await Promise.all(
      [hosts?.webDir, hosts?.workerDir].map((d) => d && rm(d, { recursive: true, force: true })),
    );
  });

  /** One user's edit, dub and image, each delivered; what the web role's file proxy had answered by then. */
  async function makeRequests() {
    const user = await startedUser(h);

    // (a) an edit of a photo sent through Telegram
    const sent = await user.sendPhoto({ width: 640, height: 480, caption: "/edit make the sky purple" });
    const photo = h.tg.fileBytes(sent.photo!.at(-1)!.file_id);
    const editOffer = await confirmAfter(user, sent);
    const edited = await user.waitFor((m) => m.photo !== undefined, { after: sent, timeoutMs: 30_000 });
    const edit = await generationAt(h, user, editOffer, "delivered");
    expect(edited.caption).toContain("make the sky purple");
    expect(edit.fileIds).toEqual([edited.photo!.at(-1)!.file_id]);

    // (b) a dub of an uploaded audio
    const audio = await user.sendAudio({
      bytes: fixture("audio.mp3"),
      fileName: "talk.mp3",
      mimeType: "audio/mpeg",
      duration: 3,
    });
    const askDub = await user.replyTo(audio, "/dub de");
    const dubOffer = await confirmAfter(user, askDub);
    const dubbed = await user.waitFor((m) => m.audio !== undefined, { after: askDub, timeoutMs: 30_000 });
    const dub = await generationAt(h, user, dubOffer, "delivered");
    expect(dub.fileIds).toEqual([dubbed.audio!.file_id]);
    expect(dub.measuredSeconds).toBeGreaterThan(0);

    // (c) a generated image
    const askImage = await user.send("/image a quiet harbour at dawn");
    const imageOffer = await confirmAfter(user, askImage);
    const pictured = await user.waitFor((m) => m.photo !== undefined, { after: askImage, timeoutMs: 30_000 });
    const image = await generationAt(h, user, imageOffer, "delivered");
    expect(pictured.caption).toContain("a quiet harbour at dawn");
    expect(image.fileIds).toEqual([pictured.photo!.at(-1)!.file_id]);

    return { user, photo, edit, dub, image, proxyAnswers: await fileProxyAnswers(h) };
  }
  // made once, for both tests (they run in a shuffled order)
  let requests: ReturnType<typeof makeRequests> | undefined;
  const made = () => {
    requests ??= makeRequests();
    return requests;
  };

  test("an edit of a Telegram photo, a dub of an uploaded audio and an image are delivered from the bucket; /history's resend and the gallery's links deliver too", async () => {
    // two processes, a role each, on disks of their own
    expect(hosts.web.pid).toBeDefined();
    expect(hosts.worker.pid).toBeDefined();
    expect(hosts.web.pid).not.toBe(hosts.worker.pid);
    expect(hosts.webDir).not.toBe(hosts.workerDir);
    const { user, edit, dub, image } = await made();
    const results = [edit, dub, image];

    // every output is in the bucket, and what Telegram got is its bytes
    const s3 = testS3Client();
    for (const g of results) {
      expect(g.outputs ?? []).toHaveLength(1);
      const keys = await keysUnder(bucket.settings.bucket, `${g.id}/`);
      expect(keys).toEqual([expect.stringMatching(new RegExp(`^${g.id}/0\\.\\w+$`))]);
      const got = await s3.send(new GetObjectCommand({ Bucket: bucket.settings.bucket, Key: keys[0] }));
      const stored = Buffer.from(await got.Body!.transformToByteArray());
      expect(h.tg.fileBytes(g.fileIds![0]!).equals(stored)).toBe(true);
    }

    // (d) /history, and its "show again" of the earliest result (the edit)
    const askHistory = await user.send("/history");
    const history = await user.waitFor(says("Your recent requests"), { after: askHistory });
    await user.press(byData(historyShowData.make(edit.id)), { message: history });
    const again = await user.waitFor(
      (m) =>
        m.photo?.at(-1)?.file_id === edit.fileIds![0] && !edit.deliveredMessageIds?.includes(m.message_id),
      { after: history },
    );
    expect(again.caption).toContain("make the sky purple");

    // (e) the Mini App gallery: each link answers, through a redirect to the bucket, with the file's bytes
    const before = await fileProxyAnswers(h);
    const app = appClient(h, user);
    const gallery = await app.get<GalleryResponse>("/gallery");
    expect(gallery.status).toBe(200);
    expect(gallery.body.items.map((i) => i.id).sort()).toEqual(results.map((g) => g.id).sort());
    let links = 0;
    for (const item of gallery.body.items) {
      const g = results.find((x) => x.id === item.id)!;
      expect(item.media.map((m) => m.kind)).toEqual([g.operation === "dub" ? "audio" : "photo"]);
      const result = await app.get<ResultResponse>(`/results/${item.id}`);
      expect(result.status).toBe(200);
      expect(result.body.media).toEqual(item.media);
      for (const [i, media] of item.media.entries()) {
        expect(media.url.startsWith(`${h.config.publicUrl}/files/`)).toBe(true);
        const redirect = await fetch(media.url, { redirect: "manual" });
        links++;
        expect(redirect.status).toBe(302);
        const location = new URL(redirect.headers.get("location") ?? "");
        expect(location.origin).toBe(new URL(objectStoreUrl).origin);
        expect(location.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
        const file = await fetch(location);
        expect(file.status).toBe(200);
        expect((await bytesOf(file)).equals(h.tg.fileBytes(g.fileIds![i]!))).toBe(true);
        // the same link, followed as a phone does, ends in the same bytes
        const followed = await fetch(media.url);
        links++;
        expect(followed.status).toBe(200);
        expect((await bytesOf(followed)).equals(h.tg.fileBytes(g.fileIds![i]!))).toBe(true);
      }
    }
    expect(links).toBe(6);
    // the web role answered each with a redirect and no byte: one 302 each, nothing else
    expect(await fileProxyAnswers(h)).toEqual({ ...before, 302: (before["302"] ?? 0) + links });

    // no host kept a file on its own disk: the worker's scratch copies are gone, the web role wrote none
    for (const dir of [hosts.webDir, hosts.workerDir]) {
      const files = await filesBelow(dir);
      expect(files.filter((f) => results.some((g) => f.includes(g.id)) || f.startsWith("scratch/"))).toEqual(
        [],
      );
    }
  }, 120_000);

  test("the service's input links point at the bucket, presigned for the input link's lifetime; the web role served none of them; a tampered or expired link is refused", async () => {
    const { edit, dub, photo, proxyAnswers } = await made();
    // while the three ran (two with inputs), nothing asked the web role's file proxy for anything
    expect(proxyAnswers).toEqual({});
    const store = new URL(objectStoreUrl);
    const publicUrl = h.config.publicUrl;

    const editLinks = createBody(h, "/api/v1/images/edits", edit.id).image_urls ?? [];
    const sourceLink = createBody(h, "/api/v1/audio/dubbing", dub.id).source_url;
    expect(editLinks).toHaveLength(1);
    expect(sourceLink).toBeDefined();
    const inputs = [
      { url: editLinks[0]!, key: new RegExp(`^inputs/${edit.id}/input-0\\.\\w+$`), bytes: photo },
      { url: sourceLink!, key: new RegExp(`^inputs/${dub.id}/source\\.\\w+$`), bytes: fixture("audio.mp3") },
    ];
    for (const [n, input] of inputs.entries()) {
      expect(input.url.startsWith(publicUrl)).toBe(false);
      const link = new URL(input.url);
      expect(link.origin).toBe(store.origin);
      const [bucketName, ...path] = link.pathname.slice(1).split("/");
      const key = path.join("/");
      expect(bucketName).toBe(bucket.settings.bucket);
      expect(key).toMatch(input.key);
      expect(link.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
      expect(link.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
      const expires = Number(link.searchParams.get("X-Amz-Expires"));
      expect(expires).toBeGreaterThan(0);
      expect(expires).toBeLessThanOrEqual(inputLinkSeconds);
      // the link, still within its lifetime, gives the user's file
      const res = await fetch(input.url);
      expect(res.status).toBe(200);
      expect((await bytesOf(res)).equals(input.bytes)).toBe(true);

      // tampered: its signature changed, or its signature on another key (the other input)
      const badSignature = new URL(input.url);
      const signature = badSignature.searchParams.get("X-Amz-Signature")!;
      badSignature.searchParams.set(
        "X-Amz-Signature",
        `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`,
      );
      expect((await fetch(badSignature)).status).toBe(403);
      const otherKey = new URL(input.url);
      otherKey.pathname = new URL(inputs[1 - n]!.url).pathname;
      expect((await fetch(otherKey)).status).toBe(403);

      // expired: signed with the bucket's keys an hour ago for a minute (the same, signed now: 200)
      const command = new GetObjectCommand({ Bucket: bucket.settings.bucket, Key: key });
      const expired = await getSignedUrl(testS3Client(), command, {
        expiresIn: 60,
        signingDate: new Date(Date.now() - 3_600_000),
      });
      const fresh = await getSignedUrl(testS3Client(), command, { expiresIn: 60 });
      expect((await fetch(expired)).status).toBe(403);
      expect((await fetch(fresh)).status).toBe(200);
    }
    // no create request the service received named the web role's file proxy
    const creates = h.sim.requests.filter((r) => r.method === "POST" && r.path.startsWith("/api/v1/"));
    expect(creates.length).toBeGreaterThanOrEqual(3);
    for (const r of creates) expect(r.body).not.toContain(`${publicUrl}/files/`);
  }, 120_000);
});

describe("the same two hosts with MEDIA_STORE=local: what the worker kept is not on the web role's disk", () => {
  let h: Harness;
  let hosts: SplitHosts;

  beforeAll(async () => {
    h = await startHarness({ noRuntime: true, policy });
    hosts = await splitHosts(h, { MEDIA_STORE: "local" });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await Promise.all(
      [hosts?.webDir, hosts?.workerDir].map((d) => d && rm(d, { recursive: true, force: true })),
    );
  });

  test("a dub's source link answers 410 from the web role, so the service cannot fetch it and the dub fails; the gallery has no file to show", async () => {
    const user = await startedUser(h);
    const publicUrl = h.config.publicUrl;

    // a generated image is delivered (the worker sends it from its own disk)...
    const askImage = await user.send("/image a quiet harbour at dawn");
    const imageOffer = await confirmAfter(user, askImage);
    await user.waitFor((m) => m.photo !== undefined, { after: askImage, timeoutMs: 30_000 });
    const image = await generationAt(h, user, imageOffer, "delivered");
    const output = `${image.id}/0.png`;
    expect(existsSync(join(hosts.workerDir, "media", output))).toBe(true);
    expect(existsSync(join(hosts.webDir, "media", output))).toBe(false);
    // ...but the gallery, served by the web role from its disk, has no file of it to show
    const gallery = await appClient(h, user).get<GalleryResponse>("/gallery");
    expect(gallery.status).toBe(200);
    expect(gallery.body.items.map((i) => ({ id: i.id, media: i.media }))).toEqual([
      { id: image.id, media: [] },
    ]);
    // and a link to it as the worker signs one (a result too big for Telegram) answers gone
    const link = signedLinks(h.config, () => h.clock.now(), defaultPolicy).outputUrl(output, 7);
    const gone = await fetch(link);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ error: "gone" });

    // a dub: the worker keeps the uploaded source on its disk and hands the service a link to the web role
    const audio = await user.sendAudio({
      bytes: fixture("audio.mp3"),
      fileName: "talk.mp3",
      mimeType: "audio/mpeg",
      duration: 3,
    });
    const askDub = await user.replyTo(audio, "/dub de");
    const dubOffer = await confirmAfter(user, askDub);
    const dub = await generationAt(h, user, dubOffer, "failed");
    await user.waitFor((m) => m.message_id === dubOffer.message_id && says("this request failed")(m), {
      timeoutMs: 30_000,
    });
    expect(dub.charged ?? 0).toBe(0);
    expect(existsSync(join(hosts.workerDir, "media", "inputs", dub.id))).toBe(true);
    expect(existsSync(join(hosts.webDir, "media", "inputs", dub.id))).toBe(false);
    const sourceUrl = createBody(h, "/api/v1/audio/dubbing", dub.id).source_url ?? "";
    expect(sourceUrl.startsWith(`${publicUrl}/files/`)).toBe(true);
    // the web role answers that link 410: the kept source is on the other host's disk
    const asked = await fetch(sourceUrl);
    expect(asked.status).toBe(410);
    expect(await asked.json()).toEqual({ error: "gone" });
    // which is what the service met: its task failed for the download's 410
    const task = h.sim.tasks().find((t) => t.metadata?.gid === dub.id);
    expect(task?.status).toBe("failed");
    expect(JSON.stringify(task?.error)).toContain("HTTP 410");
    expect((await fileProxyAnswers(h))["410"]).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
