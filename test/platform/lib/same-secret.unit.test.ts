import { describe, expect, test } from "vitest";
import { sameSecret } from "../../../src/platform/lib/same-secret";

describe("sameSecret", () => {
  test("equal secrets match; any difference does not", () => {
    expect(sameSecret("s3cret-path-segment", "s3cret-path-segment")).toBe(true);
    expect(sameSecret("s3cret-path-segmenT", "s3cret-path-segment")).toBe(false);
    expect(sameSecret("s3cret", "s3cret-path-segment")).toBe(false);
    expect(sameSecret(undefined, "s3cret")).toBe(false);
  });

  test("inputs of other lengths in bytes never throw (multi-byte characters, bytes)", () => {
    const expected = "a".repeat(32);
    expect(sameSecret("€".repeat(32), expected)).toBe(false);
    expect(sameSecret(Buffer.from("a".repeat(32)), Buffer.from(expected))).toBe(true);
    expect(sameSecret(new Uint8Array(0), expected)).toBe(false);
  });
});
