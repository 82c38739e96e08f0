import { describe, expect, it } from "vitest";
import { checkFeatureOrder } from "../../src/bot/feature";
import { features, menuCommands } from "../../src/runtime/features";

describe("the feature list", () => {
  it("is in an order every feature accepts, each named once", () => {
    expect(() => checkFeatureOrder(features)).not.toThrow();
    const names = features.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.indexOf("requests")).toBeGreaterThan(names.indexOf("groups"));
    expect(names.indexOf("requests")).toBeGreaterThan(names.indexOf("broadcasts"));
  });

  it("refuses a feature listed before one it must come after, an unknown name and a name twice", () => {
    const groups = { name: "groups" };
    const requests = { name: "requests", after: ["groups"] };
    expect(() => checkFeatureOrder([requests, groups])).toThrow(
      'feature "requests" must come after "groups"',
    );
    expect(() => checkFeatureOrder([{ name: "requests", after: ["grups"] }])).toThrow(
      'names an unknown feature "grups"',
    );
    expect(() => checkFeatureOrder([groups, requests, groups])).toThrow('feature "groups" is listed twice');
    expect(() => checkFeatureOrder([groups, requests])).not.toThrow();
  });

  it("puts every feature's commands in the menu, in the list's order", () => {
    expect(menuCommands).toEqual(features.flatMap((f) => f.commands ?? []));
    for (const command of ["image", "edit", "video", "dub", "history", "settings", "invite", "buy"]) {
      expect(menuCommands).toContain(command);
    }
  });
});
