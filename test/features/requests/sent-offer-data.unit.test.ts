import { describe, expect, test } from "vitest";
import { sentOfferData } from "../../../src/platform/telegram/callback-data";

/** The buttons under an offer for something sent without a command: `so:<action>:<message id>`. */
describe("sent offer buttons", () => {
  test("each action and a message id go through the button and back", () => {
    for (const action of ["edit", "reference", "dub", "image", "video"] as const) {
      const data = sentOfferData.make({ action, messageId: 4_294_967_296 });
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
      expect(sentOfferData.parse(data)).toEqual({ action, messageId: 4_294_967_296 });
    }
    expect(sentOfferData.make({ action: "reference", messageId: 7 })).toBe("so:r:7");
  });

  test("data the bot could not have made is no press", () => {
    for (const data of ["so:x:1", "so:e:0", "so:e:-1", "so:e:1e5", "so:e:", "so:e:01", "so:i:12a", "rg:e:1"])
      expect(sentOfferData.parse(data)).toBeUndefined();
  });
});
