import { describe, expect, test } from "vitest";
import { dubbingPerMinute, imageUnitPrice, videoUnitPrice } from "../../../sandbox/simulator/pricing";
import { knownCosts, pricesBelowCost } from "../../../src/domain/pricing/cost-check";
import { loadPriceTable, type PriceTable } from "../../../src/domain/pricing/prices";
import { formatStats, type Stats } from "../../../src/features/admin/stats";
import { translate } from "../../../src/platform/i18n/i18n";

const defaults = loadPriceTable();
const copy = (t: PriceTable): PriceTable => structuredClone(t);

describe("prices against the service's cost", () => {
  test("the default table sells every choice above the simulator's cost, with a margin", () => {
    expect(pricesBelowCost(defaults, knownCosts(defaults, true))).toEqual([]);
    const costs = defaults.serviceCost;
    expect(costs).toBeDefined();
    for (const [model, row] of Object.entries(defaults.image)) {
      for (const [option, price] of Object.entries(row)) {
        expect(price, `image ${model} ${option}`).toBeGreaterThan(
          costs?.image?.[model]?.[option] ?? Infinity,
        );
      }
    }
    for (const [model, row] of Object.entries(defaults.video)) {
      for (const [option, price] of Object.entries(row)) {
        expect(price, `video ${model} ${option}`).toBeGreaterThan(
          costs?.video?.[model]?.[option] ?? Infinity,
        );
      }
    }
    expect(defaults.dub.perMinute).toBeGreaterThan(costs?.dub?.perMinute ?? Infinity);
  });

  test("the simulator bills what the table's serviceCost says", () => {
    expect(imageUnitPrice("gamma-5-pro", "4K")).toBe(defaults.serviceCost?.image?.["gamma-5-pro"]?.["4K"]);
    expect(imageUnitPrice("nano-pro", "1K")).toBe(defaults.serviceCost?.image?.["nano-pro"]?.default);
    expect(videoUnitPrice("video-e-3.1", "1080p")).toBe(
      defaults.serviceCost?.video?.["video-e-3.1"]?.["1080p"],
    );
    expect(dubbingPerMinute).toBe(defaults.serviceCost?.dub?.perMinute);
  });

  test("every operation's below-cost choice is named: an image size, a video resolution, dubbing", () => {
    const table = copy(defaults);
    table.image["gamma-5-pro"] = { ...table.image["gamma-5-pro"], "4K": 18 };
    table.video["video-e-3.1"] = { ...table.video["video-e-3.1"], "1080p": 7 };
    table.dub.perMinute = 10 - 1;
    const costs = knownCosts(table, false);
    expect(pricesBelowCost(table, costs)).toEqual([
      { choice: "image gamma-5-pro 4K", price: 18, cost: imageUnitPrice("gamma-5-pro", "4K") },
      { choice: "video video-e-3.1 1080p", price: 7, cost: videoUnitPrice("video-e-3.1", "1080p") },
      { choice: "dub per minute", price: 9, cost: dubbingPerMinute },
    ]);
  });

  test("a price equal to its cost is not below it", () => {
    const table = copy(defaults);
    table.dub.perMinute = dubbingPerMinute;
    expect(pricesBelowCost(table, knownCosts(table, false))).toEqual([]);
  });

  test("costs come from the price settings; without them, the simulator's in sandbox mode, else none", () => {
    const { serviceCost: _, ...withoutCosts } = copy(defaults);
    const cheap: PriceTable = { ...withoutCosts, dub: { perMinute: 1 } };
    expect(knownCosts(cheap, false)).toBeUndefined();
    expect(pricesBelowCost(cheap, knownCosts(cheap, false))).toEqual([]);
    expect(pricesBelowCost(cheap, knownCosts(cheap, true)).map((b) => b.choice)).toEqual(["dub per minute"]);
    const own: PriceTable = { ...cheap, serviceCost: { dub: { perMinute: 2 } } };
    expect(pricesBelowCost(own, knownCosts(own, true))).toEqual([
      { choice: "dub per minute", price: 1, cost: 2 },
    ]);
  });

  test("/stats shows a ⚠️ section naming them, in English and Persian, and none when there are none", () => {
    const stats: Stats = {
      users: { total: 1, active1: 1, active7: 1, active30: 1, blocked: 0, banned: 0 },
      generations: [],
      credits: { granted: 20, sold: 0, adjusted: 0, held: 0, charged: 9, refunded: 0 },
      service: { spent: 10, orphanCredits: 0, orphanTasks: 0 },
      margin: -1,
    };
    const below = [{ choice: "dub per minute", price: 9, cost: 10 }];
    for (const language of ["en", "fa"] as const) {
      const t = (key: string, vars?: Record<string, string | number>) => translate(language, key, vars);
      const text = formatStats(t, stats, below);
      expect(text).toContain(t("stats-below-cost-title", { count: 1 }));
      expect(text).toContain(t("stats-below-cost-line", { choice: "dub per minute", price: 9, cost: 10 }));
      expect(text).toContain("⚠️");
      expect(formatStats(t, stats, [])).not.toContain("⚠️");
    }
  });
});
