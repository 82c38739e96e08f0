import { describe, expect, test } from "vitest";
import { dubLanguageName } from "../../src/domain/generations/params";
import { pickKeyboard, pickTitle } from "../../src/features/requests/pick";
import { translate } from "../../src/platform/i18n/i18n";
import { dubbingLanguages, imageModels, videoModelIds } from "../../src/platform/media-service/catalog";
import { panelData, parsePanelAction } from "../../src/platform/telegram/callback-data";

const t = (key: string) => key;

describe("conversation buttons", () => {
  test("every catalog value makes callback data within Telegram's 64 bytes that parses back", () => {
    const values = [...imageModels, ...videoModelIds, ...dubbingLanguages, "auto", "16:9", "4k", "30"];
    for (const value of values) {
      const data = panelData.pick(value);
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
      expect(parsePanelAction(data)).toEqual({ kind: "pick", value });
    }
    expect(parsePanelAction(panelData.open("tl"))).toEqual({ kind: "open", setting: "tl" });
    expect(parsePanelAction(panelData.page(2))).toEqual({ kind: "page", page: 2 });
    expect(parsePanelAction(panelData.confirm())).toEqual({ kind: "confirm" });
  });

  test("foreign or forged data is refused", () => {
    for (const data of [
      "rg:123",
      "cv:",
      "cv:zz",
      "cv:p:",
      "cv:p:a b",
      "cv:g:x",
      "cv:g:",
      `cv:p:${"a".repeat(70)}`,
    ]) {
      expect(parsePanelAction(data)).toBeUndefined();
    }
  });

  test("31 source languages are paged twelve at a time, the page in the title, and no button does nothing", () => {
    const choices = ["auto", ...dubbingLanguages].map((l) => ({ value: l, label: l }));
    const layout = { perRow: 3, perPage: 12 };
    const pages = [0, 1, 2].map((page) => pickKeyboard(choices, "auto", page, layout, t).inline_keyboard);
    const picks = (rows: (typeof pages)[number]) =>
      rows.flat().filter((b) => "callback_data" in b && b.callback_data?.startsWith("cv:p:"));
    expect(pages.map((rows) => picks(rows).length)).toEqual([12, 12, 7]);
    expect(pages[0]!.flat()[0]?.text).toBe("✓ auto");
    // every button picks, pages, goes back or cancels: none is a filler or a label
    for (const rows of pages) {
      for (const button of rows.flat()) {
        const data = "callback_data" in button ? button.callback_data : undefined;
        expect(data, button.text).toBeDefined();
        expect(parsePanelAction(data ?? "")?.kind, button.text).not.toBe("noop");
      }
    }
    const paging = (rows: (typeof pages)[number]) =>
      rows.flat().flatMap((b) => {
        const action = "callback_data" in b ? parsePanelAction(b.callback_data ?? "") : undefined;
        return action?.kind === "page" ? [`${b.text}→${action.page}`] : [];
      });
    expect(pages.map(paging)).toEqual([
      ["cv-btn-next→1"],
      ["cv-btn-prev→0", "cv-btn-next→2"],
      ["cv-btn-prev→1"],
    ]);
    const title = (page: number) =>
      pickTitle("Dub from?", choices.length, page, layout, (key, vars) => `${key} ${JSON.stringify(vars)}`);
    expect(title(1)).toBe('cv-pick-page {"title":"Dub from?","page":2,"pages":3}');
    expect(pickTitle("Into?", 12, 0, layout, t)).toBe("Into?");
  });

  test("the dubbing languages fit their buttons on a phone: nothing is cut to 'Detect automatica…'", () => {
    // a phone shows about 14 characters in a third of a keyboard row and 24 in half of one: the
    // panel's source button was seen cut after "👂 From: Detect automatica" (26 characters)
    // spaces take room; the isolation marks around a variable do not
    const shown = (text: string) => [...text.replace(/[\u2066-\u2069]/g, "")].length;
    for (const language of ["en", "fa"] as const) {
      const t = (key: string, vars?: Record<string, string | number>) => translate(language, key, vars);
      for (const code of ["auto", ...dubbingLanguages]) {
        const name = dubLanguageName(t, code);
        // the pickers show three a row, the current one marked ✓
        expect(shown(`✓ ${name}`), `${language} ${name}`).toBeLessThanOrEqual(14);
        // the panel shows Into and From side by side
        for (const key of ["cv-btn-target", "cv-btn-source"])
          expect(shown(t(key, { value: name })), `${language} ${key} ${name}`).toBeLessThanOrEqual(24);
      }
    }
  });
});
