import { describe, expect, test } from "vitest";
import { resultKeyboard } from "../../../src/domain/generations/result-keyboard";
import { translateFor } from "../../../src/platform/i18n/i18n";
import { reportResultData } from "../../../src/platform/telegram/callback-data";
import { generationRow } from "../../support/generation-row";

const reportData = (kb: ReturnType<typeof resultKeyboard>) =>
  kb.inline_keyboard.flat().flatMap((b) => ("callback_data" in b ? [b.callback_data] : []));

describe("the ⚠️ Report button under a result", () => {
  const inGroup = generationRow({ chatId: -100123, operation: "image", fileIds: ["f1"] });

  test("is under a result in its own group", () => {
    expect(reportData(resultKeyboard(inGroup, translateFor))).toContain(reportResultData.make(inGroup.id));
  });

  test("is not under a private chat's result, nor under a group's result shown again elsewhere", () => {
    const inPrivate = generationRow({ chatId: 42, operation: "image", fileIds: ["f1"] });
    expect(reportData(resultKeyboard(inPrivate, translateFor)).some((d) => d.startsWith("rr:"))).toBe(false);
    // /history or the Mini App sending it to the maker's private chat, or to another group
    for (const elsewhere of [42, -100999]) {
      const kb = resultKeyboard(inGroup, translateFor, undefined, undefined, elsewhere);
      expect(reportData(kb).some((d) => d.startsWith("rr:"))).toBe(false);
    }
  });
});
